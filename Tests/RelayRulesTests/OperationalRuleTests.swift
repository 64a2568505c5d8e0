import Foundation
import RelayModel
import RelayRules
import Testing

/// Rules that name operational transitions (delivery.dead, target.*): how they parse, what
/// they match, what they render.
@Suite("Operational rules")
struct OperationalRuleTests {
    static let yaml = """
        rules:
          - name: items
            notify: [{email: {to: [items@example.com], subject: "{{entrupy_id}}", text: t}}]
            continue: true
          - name: on-call
            when: {transition: [target.opened, delivery.dead]}
            notify:
              - email: {to: [oncall@example.com], subject: "{{transition}} {{target}}", text: "{{#delivery_id}}{{delivery_id}} {{rule}}{{/delivery_id}} {{error}}"}
              - webhook: {url: "https://ops.example/hook", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
        """

    static let dead = DeliveryRecord(id: 42, itemEventID: 7, entrupyID: "E1", rule: "partner", actionIndex: 0, channel: .webhook,
                                     target: "https://partner.example/***", idempotencyKey: "dlv_1", state: .dead, attempts: 9, scheduleBase: 0,
                                     createdAt: Date(timeIntervalSince1970: 1_800_000_000), transition: "result.final")

    @Test func aRuleMatchesAnOperationalTransitionOnlyWhenItNamesIt() throws {
        let rules = try RuleMatchingTests.rules(Self.yaml)
        // The rule without a transition list matches every item transition, and no operational one.
        #expect(rules.matching(.targetOpened).map(\.name) == ["on-call"])
        #expect(rules.matching(.targetRecovered).isEmpty)
        #expect(rules.matching(item: RuleMatchingTests.subject().item, transition: .resultFinal).map(\.name) == ["items"])
    }

    @Test func alertsRenderTheEventsValues() throws {
        let rules = try RuleMatchingTests.rules(Self.yaml)
        let event = OperationalEvent(kind: .deliveryDead, occurredAt: Date(timeIntervalSince1970: 1_800_000_100),
                                     target: "https://partner.example", error: "HTTP 410", delivery: Self.dead)
        let planned = DeliveryPlanner.plan(rules: rules, event: event)
        #expect(planned.map(\.rule) == ["on-call", "on-call"])
        guard case .email(let email) = planned[0].payload, case .webhook(let hook) = planned[1].payload else {
            Issue.record("expected an email and a webhook: \(planned)"); return
        }
        #expect(email.subject == "delivery.dead https://partner.example")
        #expect(email.text == "42 partner HTTP 410")
        let body = try #require(JSONValue(jsonText: hook.body))
        #expect(body["type"]?.stringValue == "delivery.dead")
        #expect(body["data"]?["delivery"]?["id"]?.doubleValue == 42)
        #expect(body["data"]?["delivery"]?["attempts"]?.doubleValue == 9)
        #expect(body["data"]?["target_state"] == .null)
        #expect(planned[1].target == "https://ops.example/***")
        // A target event has no delivery: the section is left out.
        let opened = OperationalEvent(.opened, health: TargetHealth(key: "smtp", state: .open, stateSince: event.occurredAt, lastError: "timeout"),
                                      at: event.occurredAt)
        guard case .email(let mail) = DeliveryPlanner.plan(rules: rules, event: opened)[0].payload else { Issue.record("no email"); return }
        #expect(mail.text == " timeout")
    }

    @Test func itemFieldsAndItemVariablesAreRefusedWhereNoItemIs() {
        let problems = RuleSetParserTests().problems("""
            rules:
              - name: mixed
                when: {transition: [target.opened], brand: nike}
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
              - name: wrong-variable
                when: {transition: [target.disabled]}
                notify: [{email: {to: [a@example.com], subject: "{{customer_item_id}}", text: t}}]
              - name: unknown
                when: {transition: [target.exploded]}
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
            """)
        #expect(problems.count == 3)
        #expect(problems.first { $0.rule == "mixed" }?.message.contains("concern no item") == true)
        #expect(problems.first { $0.rule == "wrong-variable" }?.message.contains("unknown variable \"customer_item_id\"") == true)
        #expect(problems.first { $0.rule == "unknown" }?.message.contains("delivery.dead, target.opened") == true)
        // Both kinds in one rule: both sets of variables.
        #expect(RuleSetParserTests().problems("""
            rules:
              - name: both
                when: {transition: [result.final, delivery.dead]}
                notify: [{email: {to: [a@example.com], subject: "{{target}}{{customer_item_id}}", text: t}}]
            """).isEmpty)
    }
}
