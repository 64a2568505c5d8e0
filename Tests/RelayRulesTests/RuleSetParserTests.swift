import RelayModel
import RelayRules
import Testing

@Suite("Rules file parsing")
struct RuleSetParserTests {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    let parser = RuleSetParser(secret: { $0 == "PARTNER_SECRET" ? RuleSetParserTests.secret : nil })

    func problems(_ yaml: String) -> [RuleProblem] {
        do {
            _ = try parser.parse(yaml)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func readsTheDocumentedFormat() throws {
        let rules = try parser.parse("""
            rules:
              - name: authentic-mail
                when:
                  transition: [result.final]
                  result: [authentic]
                  flag: resolved
                  brand: [Nike, adidas]
                  customer_item_id: "^sku-"
                notify:
                  - email:
                      to: [ops@example.com]
                      subject: "{{customer_item_id}} is {{result}}"
                      text: "Item {{entrupy_id}} is {{result}}."
                      html: "<p>{{brand}}</p>"
                  - webhook:
                      url: https://partner.example/entrupy
                      secret: ${PARTNER_SECRET}
                      headers: {X-Partner: acme}
                continue: true
              - name: everything
                notify:
                  - webhook: {url: "https://b.example/hook", secret: \(Self.secret)}
            """)
        #expect(rules.rules.map(\.name) == ["authentic-mail", "everything"])
        let first = try #require(rules.rules.first)
        #expect(first.continues)
        #expect(first.condition.transitions == [.resultFinal])
        #expect(first.condition.brands == ["nike", "adidas"])
        #expect(first.condition.flags == ["resolved"])
        #expect(first.actions.map(\.channelName) == ["email", "webhook"])
        guard case .webhook(let webhook) = first.actions[1] else { Issue.record("expected a webhook"); return }
        #expect(webhook.headers.map(\.name) == ["X-Partner"])
        #expect(webhook.signingKeyID?.hasPrefix("key_") == true)
        #expect(rules.signingKeys.count == 1, "both webhooks use the same secret")
        #expect(rules.rules[1].continues == false)
    }

    /// Issue 30: the flag transitions v2's values bring are rules' to match like the others.
    @Test func flagReviewedAndChangedAreTransitionsRulesMatch() {
        #expect(problems("""
            rules:
              - name: reviews
                when: {transition: [flag.reviewed, flag.changed]}
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
            """).isEmpty)
    }

    @Test func unknownTransitionIsNamedAsWritten() {
        let found = problems("""
            rules:
              - name: typo
                when: {transition: [result.finale]}
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
            """)
        #expect(found.count == 1)
        #expect(found.first?.rule == "typo")
        #expect(found.first?.field == "when.transition")
        #expect(found.first?.message.contains("\"result.finale\"") == true)
        #expect(found.first?.line == 3)
        #expect(found.first?.description.hasPrefix("line 3: rule \"typo\": when.transition: unknown transition kind \"result.finale\"") == true)
    }

    @Test func collectsEveryProblemWithRuleAndField() {
        let found = problems("""
            rules:
              - name: one
                when: {colour: red, customer_item_id: "([", result: []}
                notify:
                  - email: {to: [not-an-address], subject: "{{nope}}", text: "{{> partial}}"}
                  - webhook: {url: "ftp://x", secret: "plain", headers: {Webhook-Signature: x}}
                  - sms: {to: "1"}
              - name: one
                notify: [{webhook: {url: "https://x.example", secret: "${MISSING}"}}]
              - notify: []
                continue: maybe
            """)
        let described = found.map(\.description)
        let expected: [(String?, String)] = [
            ("one", "when.colour"), ("one", "when.customer_item_id"), ("one", "when.result"),
            ("one", "notify[0].email.to"), ("one", "notify[0].email.subject"), ("one", "notify[0].email.text"),
            ("one", "notify[1].webhook.url"), ("one", "notify[1].webhook.secret"), ("one", "notify[1].webhook.headers.Webhook-Signature"),
            ("one", "notify[2].sms"), ("#3", "name"),
        ]
        for (rule, field) in expected {
            #expect(found.contains { $0.rule == rule && $0.field == field }, "missing \(rule ?? "-") \(field) in \(described)")
        }
        #expect(found.contains { $0.field == "notify[0].webhook.secret" && $0.message.contains("MISSING is not set") })
        #expect(!described.joined().contains("plain"), "a secret's value is never echoed")
    }

    @Test func duplicateNamesAreRefused() {
        let found = problems("""
            rules:
              - name: same
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
              - name: same
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
            """)
        #expect(found.map(\.field) == ["name"])
        #expect(found.first?.message.contains("duplicate") == true)
    }

    @Test func structuralMistakes() {
        #expect(problems("").first?.message.contains("empty") == true)
        #expect(problems("rules: [").first?.message.contains("not valid YAML") == true)
        #expect(problems("rule: []").map(\.field).contains("rule"))
        #expect(problems("rules: {a: 1}").first?.field == "rules")
        #expect(problems("rules:\n  - name: x\n").first?.field == "notify")
        #expect(problems("rules: []").isEmpty, "an empty list is a valid file that sends nothing")
    }

    @Test func templatesMayOnlyUseKnownVariables() {
        let found = problems("""
            rules:
              - name: t
                notify:
                  - email:
                      to: a@example.com
                      subject: "{{#brand}}{{uppercased(brand)}}{{/brand}} {{! comment }}{{{result}}}"
                      text: "{{&model}} {{^flag}}none{{/flag}} {{occured_at}}"
            """)
        #expect(found.count == 1)
        #expect(found.first?.field == "notify[0].email.text")
        #expect(found.first?.message.contains("\"occured_at\"") == true)
    }
}
