import Foundation
import RelayModel
import RelayRules
import Testing

/// `targets test`'s sample: a fabricated item with a value for every template variable, a
/// transition the rule matches, rendered as a real delivery would be.
@Suite("Target test samples")
struct TargetTestSampleTests {
    static let yaml = """
        rules:
          - name: flags
            when: {transition: [flag.raised, flag.resolved], brand: [gucci]}
            notify:
              - email: {to: [ops@example.com], subject: "{{brand}} {{transition}} {{from}} -> {{to}}", text: "TEXT"}
              - webhook: {url: "https://partner.example/hook/secret-path", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
          - name: everything
            notify:
              - webhook: {url: "https://other.example/hook", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
          - name: on-call
            when: {transition: [target.opened, delivery.dead]}
            notify:
              - email: {to: [oncall@example.com], subject: "{{transition}} {{target}} {{rule}}", text: "{{error}}"}
        """

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Every template variable, in one text body: the sample leaves none empty.
    static var everyVariable: String {
        NotificationSubject.variableNames.sorted().map { "\($0)=[{{\($0)}}]" }.joined(separator: "\n")
    }

    @Test func everyTemplateVariableHasASampleValue() throws {
        let rules = try RuleMatchingTests.rules("""
            rules:
              - name: all
                notify: [{email: {to: [a@example.com], subject: s, text: "\(Self.everyVariable.replacingOccurrences(of: "\n", with: "\\n"))"}}]
            """)
        let (planned, transition) = try TargetTestSample.plan(rules: rules, rule: "all", action: 0, transition: nil, now: Self.now)
        #expect(transition == "result.final")
        guard case .email(let email) = planned.payload else { Issue.record("expected an email"); return }
        let empty = email.text.split(separator: "\n").filter { $0.hasSuffix("=[]") }
        #expect(empty.isEmpty, "variables without a sample value: \(empty)")
        #expect(email.text.contains("entrupy_id=[\(TargetTestSample.entrupyID)]"))
    }

    @Test func theSampleMatchesTheRuleAndRendersItsActionAsADeliveryWould() throws {
        let rules = try RuleMatchingTests.rules(Self.yaml)
        let (mail, kind) = try TargetTestSample.plan(rules: rules, rule: "flags", action: 0, transition: nil, now: Self.now)
        #expect(kind == "flag.raised", "the rule's first transition in the contract's order")
        guard case .email(let email) = mail.payload else { Issue.record("expected an email"); return }
        #expect(email.subject == "gucci flag.raised none -> flagged", "the brand the rule asks for, so the rule would match")
        #expect(mail.target == "ops@example.com" && mail.rule == "flags" && mail.actionIndex == 0)

        let (hook, resolved) = try TargetTestSample.plan(rules: rules, rule: "flags", action: 1, transition: "flag.resolved", now: Self.now)
        #expect(resolved == "flag.resolved")
        guard case .webhook(let webhook) = hook.payload else { Issue.record("expected a webhook"); return }
        #expect(webhook.url == "https://partner.example/hook/secret-path")
        #expect(hook.target == "https://partner.example/***" || hook.target.hasPrefix("https://partner.example/***"))
        #expect(hook.signingKeyID != nil && hook.signingKeyID == rules.signingKeys.keys.first)
        let body = try #require(JSONValue(jsonText: webhook.body))
        #expect(body["type"]?.stringValue == "flag.resolved")
        #expect(body["data"]?["entrupy_id"]?.stringValue == TargetTestSample.entrupyID)
        #expect(body["data"]?["flag"]?.stringValue == "resolved")
        // Exactly what the planner renders for the sample's subject.
        #expect(body["data"]?["brand"]?.stringValue == "gucci" && body["data"]?["transition"]?.stringValue == "flag.resolved")
    }

    @Test func aRuleWithoutATransitionListIsTriedWithResultFinal() throws {
        let rules = try RuleMatchingTests.rules(Self.yaml)
        let (planned, kind) = try TargetTestSample.plan(rules: rules, rule: "everything", action: 0, transition: nil, now: Self.now)
        #expect(kind == "result.final")
        guard case .webhook(let webhook) = planned.payload else { Issue.record("expected a webhook"); return }
        let body = try #require(JSONValue(jsonText: webhook.body))
        #expect(body["data"]?["result"]?.stringValue == "authentic" && body["data"]?["result_final"]?.boolValue == true)
        #expect(body["data"]?["photo_url"]?.stringValue?.hasPrefix("https://") == true)
    }

    @Test func anOperationalRuleIsTriedWithASampleEvent() throws {
        let rules = try RuleMatchingTests.rules(Self.yaml)
        let (planned, kind) = try TargetTestSample.plan(rules: rules, rule: "on-call", action: 0, transition: nil, now: Self.now)
        #expect(kind == "delivery.dead")
        guard case .email(let email) = planned.payload else { Issue.record("expected an email"); return }
        #expect(email.subject == "delivery.dead https://partner.example.com sample-rule")
        #expect(email.text.contains("HTTP 500"))
        let opened = try TargetTestSample.plan(rules: rules, rule: "on-call", action: 0, transition: "target.opened", now: Self.now)
        #expect(opened.transition == "target.opened")
    }

    @Test func hostileChoicesAreRefusedWithAClearSentence() throws {
        let rules = try RuleMatchingTests.rules(Self.yaml)
        func problem(_ rule: String, _ action: Int, _ transition: String? = nil) -> TargetTestProblem? {
            do {
                _ = try TargetTestSample.plan(rules: rules, rule: rule, action: action, transition: transition, now: Self.now)
                return nil
            } catch {
                return error
            }
        }
        #expect(problem("nope", 0) == .unknownRule("nope", known: ["flags", "everything", "on-call"]))
        #expect(problem("nope", 0)?.isNotFound == true)
        #expect(problem("flags", 2)?.description == "rule \"flags\" has no action 2: its actions are 0 to 1")
        #expect(problem("flags", -1) == .actionOutOfRange(rule: "flags", index: -1, count: 2))
        #expect(problem("flags", 0, "result.final")?.description == "rule \"flags\" does not match result.final (it matches flag.raised, flag.resolved)")
        #expect(problem("flags", 0, "result.finale") == .unknownTransition("result.finale"))
        #expect(problem("\u{1B}]0;x", 0)?.description.contains("\\u{1B}") == true, "names are printable")
        #expect(problem("everything", 0, "delivery.dead") != nil, "a rule with no transition list matches no operational one")
        #expect(throws: TargetTestProblem.noRules) { try TargetTestSample.plan(rules: .empty, rule: "x", action: 0, transition: nil, now: Self.now) }
    }

    @Test func theActionsListNamesEachRuleActionWithItsMaskedTarget() throws {
        let actions = TargetTestSample.actions(in: try RuleMatchingTests.rules(Self.yaml))
        #expect(actions.map { "\($0.rule)/\($0.action)/\($0.channel.rawValue)" } == ["flags/0/email", "flags/1/webhook", "everything/0/webhook", "on-call/0/email"])
        #expect(actions.allSatisfy { !$0.target.contains("secret-path") })
    }

    @Test func theURLFormPostsTheDefaultBody() throws {
        let planned = TargetTestSample.plan(url: "https://partner.example/hook?token=abc", now: Self.now)
        guard case .webhook(let webhook) = planned.payload else { Issue.record("expected a webhook"); return }
        #expect(webhook.url == "https://partner.example/hook?token=abc" && !planned.target.contains("token"))
        let body = try #require(JSONValue(jsonText: webhook.body))
        #expect(body["type"]?.stringValue == "result.final" && body["data"]?["entrupy_id"]?.stringValue == TargetTestSample.entrupyID)
    }
}
