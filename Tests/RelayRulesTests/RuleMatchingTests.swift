import Foundation
import RelayModel
import RelayRules
import Testing

@Suite("Matching and rendering")
struct RuleMatchingTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    static func rules(_ yaml: String) throws -> RuleSet {
        try RuleSetParser(secret: { _ in nil }).parse(yaml)
    }

    static func subject(kind: TransitionKind = .resultFinal, result: String? = "authentic", flag: String = "none",
                        brand: String? = "nike", customerItemID: String? = "sku-1", username: String? = "Org-ann") -> NotificationSubject {
        let item = EntrupyItem(entrupyID: "E1", customerItemID: customerItemID, result: result, resultFinal: true, flag: flag,
                               brand: brand, model: "air", category: "sneakers", username: username, certificateURL: "https://c.example/1")
        return NotificationSubject(item: item, transition: Transition(kind: kind, from: "needs_review", to: result),
                                   occurredAt: Date(timeIntervalSince1970: 1_795_000_000))
    }

    static let yaml = """
        rules:
          - name: final-nike
            when: {transition: [result.final, result.changed], brand: [NIKE, adidas], customer_item_id: "^sku-", username: "^Org-"}
            notify: [{email: {to: [a@example.com], subject: "{{customer_item_id}}", text: t}}]
            continue: true
          - name: flags
            when: {transition: flag.raised}
            notify: [{email: {to: [b@example.com], subject: s, text: t}}]
          - name: catch-all
            notify: [{email: {to: [c@example.com], subject: s, text: t}}]
          - name: never-reached
            notify: [{email: {to: [d@example.com], subject: s, text: t}}]
        """

    @Test func keysAndValuesCombine() throws {
        let rules = try Self.rules(Self.yaml)
        #expect(rules.matching(Self.subject()).map(\.name) == ["final-nike", "catch-all"], "continue lets the next match fire; the first without it stops")
        #expect(rules.matching(Self.subject(brand: "puma")).map(\.name) == ["catch-all"])
        #expect(rules.matching(Self.subject(brand: nil)).map(\.name) == ["catch-all"], "a missing value matches no list")
        #expect(rules.matching(Self.subject(customerItemID: "order-sku-1")).map(\.name) == ["catch-all"])
        #expect(rules.matching(Self.subject(username: "org-ann")).map(\.name) == ["catch-all"], "patterns are case-sensitive")
        #expect(rules.matching(Self.subject(kind: .flagRaised)).map(\.name) == ["flags"])
    }

    /// The pipeline asks `plansAny` before it looks up the submitter's ID, then plans once: the
    /// two must agree, or a delivery goes out without the ID or the query is spent for nothing.
    @Test func plansAnyAgreesWithPlan() throws {
        let only = try Self.rules("""
            rules:
              - name: flags
                when: {transition: flag.raised, brand: [nike]}
                notify: [{email: {to: [b@example.com], subject: s, text: t}}]
            """)
        let cases: [(RuleSet, NotificationSubject, [TransitionKind], Bool)] = [
            (only, Self.subject(), [.resultFinal], false),
            (only, Self.subject(), [.resultFinal, .flagRaised], true),
            (only, Self.subject(brand: "puma"), [.flagRaised], false),
            (only, Self.subject(), [], false),
            (try Self.rules(Self.yaml), Self.subject(brand: nil), [.resultChanged], true),
            (.empty, Self.subject(), [.resultFinal], false),
        ]
        for (rules, subject, kinds, expected) in cases {
            let transitions = kinds.map { Transition(kind: $0, from: nil, to: "x") }
            let planned = DeliveryPlanner.plan(rules: rules, item: subject.item, transitions: transitions, occurredAt: subject.occurredAt)
            #expect(DeliveryPlanner.plansAny(rules: rules, item: subject.item, transitions: transitions) == expected, "\(kinds)")
            #expect(planned.isEmpty == !expected, "\(kinds): \(planned.count) planned")
        }
    }

    @Test func rendersTextUnescapedAndHTMLEscaped() throws {
        let rules = try Self.rules("""
            rules:
              - name: r
                notify:
                  - email:
                      to: [a@example.com]
                      subject: "{{brand}} {{customer_item_id}} is {{result}}{{^missing_model}}{{/missing_model}}"
                      text: "{{transition}} {{from}}->{{to}} at {{occurred_at}}{{#certificate_url}} see {{certificate_url}}{{/certificate_url}}"
                      html: "<p>{{brand}}</p>"
                  - webhook: {url: "https://x.example/h", secret: \(Self.secret)}
            """.replacingOccurrences(of: "{{^missing_model}}{{/missing_model}}", with: ""))
        let subject = Self.subject(brand: "A&B <x>")
        let planned = DeliveryPlanner.plan(rules: rules, item: EntrupyItem(entrupyID: "E1", customerItemID: "sku-1", result: "authentic",
                                                                               resultFinal: true, brand: "A&B <x>", certificateURL: "https://c.example/1"),
                                           transitions: [subject.transition], occurredAt: subject.occurredAt)
        #expect(planned.count == 2)
        let email = planned[0]
        #expect(email.channel == .email)
        #expect(email.transitionIndex == 0 && email.actionIndex == 0 && email.rule == "r")
        guard case .email(let mail) = email.payload else { Issue.record("not an email: \(email.payload)"); return }
        #expect(mail.subject == "A&B <x> sku-1 is authentic")
        #expect(mail.text == "result.final needs_review->authentic at 2026-11-18T11:06:40.000Z see https://c.example/1")
        #expect(mail.html == "<p>A&amp;B &lt;x&gt;</p>")
        let webhook = planned[1]
        #expect(webhook.channel == .webhook && webhook.actionIndex == 1 && webhook.target == "https://x.example/***")
        guard case .webhook(let callback) = webhook.payload else { Issue.record("not a webhook: \(webhook.payload)"); return }
        let body = try #require(JSONValue(jsonText: callback.body))
        #expect(body["type"]?.stringValue == "result.final")
        #expect(body["timestamp"]?.stringValue == "2026-11-18T11:06:40.000Z")
        #expect(body["data"]?["brand"]?.stringValue == "A&B <x>")
        #expect(body["data"]?["result_final"] == .bool(true))
        #expect(webhook.signingKeyID == WebhookSecret.standardWebhooks(Self.secret)?.fingerprint)
        #expect(!(webhook.payload.json.jsonText.contains("MfKQ9r8")), "the secret is not stored in the delivery")
    }

    /// Issue 10, item 12: a callback URL's credentials never become the delivery's `target`,
    /// which the API, console, CLI and SQL views show; the sender's payload keeps the full URL.
    @Test func aCallbackTargetIsStoredMasked() throws {
        let rules = try RuleSetParser(secret: { _ in nil }).parse("""
            rules:
              - name: r
                notify:
                  - webhook: {url: "https://bob:s3cret@x.example/h?api_key=k1", secret: \(Self.secret)}
            """)
        let subject = Self.subject(brand: "nike")
        let planned = DeliveryPlanner.plan(rules: rules, item: EntrupyItem(entrupyID: "E1", customerItemID: "sku-1", result: "authentic",
                                                                               resultFinal: true, brand: "nike", certificateURL: nil),
                                           transitions: [subject.transition], occurredAt: subject.occurredAt)
        let webhook = try #require(planned.first)
        #expect(webhook.target == "https://x.example/***")
        #expect(webhook.payload == .webhook(.init(url: "https://bob:s3cret@x.example/h?api_key=k1", headers: [], body: Self.callbackBody(webhook))))
    }

    static func callbackBody(_ delivery: PlannedDelivery) -> String {
        if case .webhook(let callback) = delivery.payload { callback.body } else { "" }
    }
}
