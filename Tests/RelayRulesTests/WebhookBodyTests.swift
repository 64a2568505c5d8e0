import Foundation
import RelayModel
import RelayRules
import Testing

/// Issue 46: a webhook action's body template (JSON-escaped values, valid JSON checked at
/// load), the chat presets, and which targets may go unsigned.
@Suite("Webhook body templates and chat presets")
struct WebhookBodyTests {
    static let secret = RuleSetParserTests.secret
    static let hostileBrand = "Ni\"ke\\ \"},\"x\":\"\n\r\t\u{0}\u{1F}\u{7F}\u{2028}\u{2029}</script>{{result}} é 😀"

    static func rules(_ notify: String, when: String = "{transition: [result.final]}") throws -> RuleSet {
        try RuleSetParserTests().parser.parse("""
            rules:
              - name: custom
                when: \(when)
                notify:
            \(notify)
            """)
    }

    static func planned(_ rules: RuleSet, brand: String?) throws -> (PlannedDelivery, JSONValue) {
        let subject = RuleMatchingTests.subject(brand: brand)
        let planned = DeliveryPlanner.plan(rules: rules, item: subject.item, transitions: [subject.transition], occurredAt: subject.occurredAt)
        let delivery = try #require(planned.first)
        guard case .webhook(let hook) = delivery.payload else { throw CancellationError() }
        return (delivery, try #require(JSONValue(jsonText: hook.body), "not JSON: \(hook.body)"))
    }

    @Test func everyValueIsJSONEscapedSoItemDataStaysInItsString() throws {
        let rules = try Self.rules("""
                  - webhook:
                      url: https://erp.example/hook
                      secret: ${PARTNER_SECRET}
                      body: |
                        {"sku": "{{customer_item_id}}", "label": "{{brand}} is {{result}}",
                         "brand": "{{brand}}"{{#model}}, "model": "{{model}}"{{/model}}}
            """)
        let (_, body) = try Self.planned(rules, brand: Self.hostileBrand)
        #expect(body["brand"]?.stringValue == Self.hostileBrand, "the brand parses back to what it was")
        #expect(body["label"]?.stringValue == "\(Self.hostileBrand) is authentic")
        #expect(body["x"] == nil, "nothing broke out of the string")
        #expect(body["model"]?.stringValue == "air")
        #expect(body["sku"]?.stringValue == "sku-1")
        // Control characters, DEL and the line and paragraph separators go out as \u escapes, not raw.
        let (delivery, _) = try Self.planned(rules, brand: Self.hostileBrand)
        guard case .webhook(let raw) = delivery.payload else { return }
        #expect(raw.body.contains(#"\u2028\u2029"#) && raw.body.contains(#"\u0000\u001f\u007f"#))
        #expect(!raw.body.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test func aBodyThatRendersInvalidJSONIsRefusedWithItsLine() {
        let problems = RuleSetParserTests().problems("""
            rules:
              - name: unquoted
                notify:
                  - webhook:
                      url: https://erp.example/hook
                      secret: ${PARTNER_SECRET}
                      body: '{"brand": {{brand}}}'
              - name: unclosed
                notify:
                  - webhook: {url: "https://erp.example/hook", secret: "${PARTNER_SECRET}", body: '{"id": "{{entrupy_id}}"'}
              - name: raw
                notify:
                  - webhook: {url: "https://erp.example/hook", secret: "${PARTNER_SECRET}", body: '{"b": "{{{brand}}}"}'}
              - name: unknown
                notify:
                  - webhook: {url: "https://erp.example/hook", secret: "${PARTNER_SECRET}", body: '{"b": "{{colour}}"}'}
              - name: fine
                notify:
                  - webhook: {url: "https://erp.example/hook", secret: "${PARTNER_SECRET}", body: '{"b": "{{brand}}"}'}
            """)
        #expect(problems.count == 4, "\(problems)")
        let unquoted = problems.first { $0.rule == "unquoted" }
        #expect(unquoted?.field == "notify[0].webhook.body")
        #expect(unquoted?.line == 7)
        #expect(unquoted?.message.contains("does not render valid JSON") == true)
        #expect(unquoted?.description.hasPrefix("line 7: rule \"unquoted\": notify[0].webhook.body: does not render valid JSON") == true)
        #expect(problems.first { $0.rule == "unclosed" }?.line == 10)
        #expect(problems.first { $0.rule == "raw" }?.message.contains("unescaped") == true)
        #expect(problems.first { $0.rule == "unknown" }?.message.contains("unknown variable \"colour\"") == true)
    }

    /// A section that leaves a dangling comma when its value is absent is found by the samples.
    @Test func sectionsAreCheckedWithValuesAbsent() {
        let problems = RuleSetParserTests().problems("""
            rules:
              - name: comma
                notify:
                  - webhook:
                      url: https://erp.example/hook
                      secret: ${PARTNER_SECRET}
                      body: '{"id": "{{entrupy_id}}"{{#brand}},{{/brand}} "b": "{{brand}}"}'
            """)
        #expect(problems.map(\.field) == ["notify[0].webhook.body"])
        #expect(problems.first?.message.contains("does not render valid JSON: with ") == true, "\(problems)")
    }

    /// Two values present and two absent together is a mix the load-time samples do not try: a
    /// body that is not JSON for it is never sent, and no other body either (the operator gave this
    /// one): the delivery is planned with no body and the reason, and reads back so from its row.
    @Test func aBodyInvalidForAnUntriedMixIsPlannedUnsendable() throws {
        let rules = try Self.rules("""
                  - webhook:
                      url: https://erp.example/hook
                      secret: ${PARTNER_SECRET}
                      body: '{"id": "{{entrupy_id}}"{{#brand}}{{#model}}{{^photo_url}}{{^flag_reason}} broken{{/flag_reason}}{{/photo_url}}{{/model}}{{/brand}}}'
            """)
        let subject = RuleMatchingTests.subject(brand: "nike")
        let planned = DeliveryPlanner.plan(rules: rules, item: subject.item, transitions: [subject.transition], occurredAt: subject.occurredAt)
        guard case .webhook(let hook) = try #require(planned.first).payload else { Issue.record("no webhook"); return }
        #expect(hook.body.isEmpty, "neither the broken body nor the relay's own: \(hook.body)")
        let reason = try #require(hook.unsendable)
        #expect(reason.hasPrefix("the body template rendered invalid JSON for this item (invalid JSON at byte "), "\(reason)")
        let first = try #require(planned.first)
        let stored = try #require(DeliveryPayload(stored: first.payload.json, channel: .webhook))
        guard case .webhook(let read) = stored else { Issue.record("not a webhook"); return }
        #expect(read.unsendable == reason && read.body.isEmpty)
        // A row stored before there was `unsendable` reads back sendable.
        let old = try #require(JSONValue(jsonText: #"{"url": "https://erp.example/hook", "headers": [], "body": "{}"}"#))
        guard case .webhook(let oldHook)? = DeliveryPayload(stored: old, channel: .webhook) else { Issue.record("old row"); return }
        #expect(oldHook.unsendable == nil && oldHook.body == "{}")
        let (_, withoutBrand) = try Self.planned(rules, brand: nil)
        #expect(withoutBrand.jsonText == #"{"id":"E1"}"#, "the template where it renders JSON")
        let (sendable, _) = try Self.planned(rules, brand: nil)
        guard case .webhook(let fine) = sendable.payload else { return }
        #expect(fine.unsendable == nil && sendable.payload.json["unsendable"] == nil, "a sendable row stores no marker")
    }

    @Test func operationalRulesCheckTheirOwnVariables() throws {
        let rules = try Self.rules("""
                  - webhook:
                      url: https://ops.example/hook
                      secret: ${PARTNER_SECRET}
                      body: '{"summary": "{{transition}} on {{target}}", "rule": "{{rule}}", "error": "{{error}}"}'
            """, when: "{transition: [delivery.dead]}")
        let event = OperationalEvent(kind: .deliveryDead, occurredAt: Date(), target: "https://p\"x.example",
                                     error: "HTTP 500 \"oops\"\n", delivery: OperationalRuleTests.dead)
        guard case .webhook(let hook) = try #require(DeliveryPlanner.plan(rules: rules, event: event).first).payload else {
            Issue.record("no webhook"); return
        }
        let body = try #require(JSONValue(jsonText: hook.body))
        #expect(body["summary"]?.stringValue == "delivery.dead on https://p\"x.example")
        #expect(body["error"]?.stringValue == "HTTP 500 \"oops\"\n")
        #expect(body["rule"]?.stringValue == "partner")
        let problems = RuleSetParserTests().problems("""
            rules:
              - name: ops
                when: {transition: [target.opened]}
                notify:
                  - webhook: {url: "https://ops.example/hook", secret: "${PARTNER_SECRET}", body: '{"b": "{{brand}}"}'}
            """)
        #expect(problems.first?.message.contains("unknown variable \"brand\"") == true, "\(problems)")
    }

    @Test func presetAndBodyExcludeEachOtherAndTextNeedsAPreset() {
        let problems = RuleSetParserTests().problems("""
            rules:
              - name: both
                notify:
                  - webhook: {url: "https://hooks.slack.com/services/T0/B0/X", preset: slack, body: '{"text": "x"}'}
              - name: lonely-text
                notify:
                  - webhook: {url: "https://erp.example/hook", secret: "${PARTNER_SECRET}", text: "{{brand}}"}
              - name: unknown-preset
                notify:
                  - webhook: {url: "https://chat.example/hook", preset: mattermost}
            """)
        #expect(problems.map(\.rule) == ["both", "lonely-text", "unknown-preset"], "\(problems)")
        #expect(problems[0].field == "notify[0].webhook.body" && problems[0].message.contains("exclude each other"))
        #expect(problems[1].field == "notify[0].webhook.text")
        #expect(problems[2].message.contains("expected one of slack, google_chat, discord, teams"))
    }

    @Test func onlyAPresetTargetMayGoUnsigned() throws {
        let problems = RuleSetParserTests().problems("""
            rules:
              - name: no-secret
                notify:
                  - webhook: {url: "https://erp.example/hook"}
              - name: unsigned-erp
                notify:
                  - webhook: {url: "https://erp.example/hook", unsigned: true, body: '{"a": "{{brand}}"}'}
              - name: both
                notify:
                  - webhook: {url: "https://hooks.slack.com/services/T0/B0/X", preset: slack, unsigned: true, secret: "${PARTNER_SECRET}"}
              - name: said-signed
                notify:
                  - webhook: {url: "https://hooks.slack.com/services/T0/B0/X", preset: slack, unsigned: false}
            """)
        #expect(problems.map(\.rule) == ["no-secret", "unsigned-erp", "both", "said-signed"], "\(problems)")
        #expect(problems[0].field == "notify[0].webhook.secret" && problems[0].message.hasPrefix("required: callbacks are signed"))
        #expect(problems[1].field == "notify[0].webhook.unsigned" && problems[1].message.contains("only a chat preset"))
        #expect(problems[2].field == "notify[0].webhook.secret")
        #expect(problems[3].message.hasPrefix("required"))

        let rules = try Self.rules("""
                  - webhook: {url: "https://hooks.slack.com/services/T0/B0/SECRETPATH", preset: slack}
                  - webhook: {url: "https://chat.googleapis.com/v1/spaces/S/messages?key=K&token=T", preset: google_chat, unsigned: true}
                  - webhook: {url: "https://discord.com/api/webhooks/1/TOKEN", preset: discord, secret: "${PARTNER_SECRET}"}
            """)
        let subject = RuleMatchingTests.subject()
        let planned = DeliveryPlanner.plan(rules: rules, item: subject.item, transitions: [subject.transition], occurredAt: subject.occurredAt)
        #expect(planned.map(\.signingKeyID?.isEmpty) == [nil, nil, false])
        #expect(planned.map(\.target) == ["https://hooks.slack.com/***", "https://chat.googleapis.com/***", "https://discord.com/***"],
                "the chat URL, its secret, is masked")
        let unsigned = planned.map { if case .webhook(let hook) = $0.payload { hook.unsigned } else { false } }
        #expect(unsigned == [true, true, false])
        #expect(rules.signingKeys.count == 1)
    }

    @Test func theUnsignedMarkerIsStoredAndOldRowsReadSigned() throws {
        let hook = DeliveryPayload.webhook(.init(url: "https://hooks.slack.com/services/T/B/X", headers: [], body: "{}", unsigned: true))
        #expect(hook.json["unsigned"]?.boolValue == true)
        #expect(DeliveryPayload(stored: hook.json, channel: .webhook) == hook)
        #expect(hook.shownJSON["url"]?.stringValue == "https://hooks.slack.com/***", "rules test --json shows the URL masked")
        let old = try #require(JSONValue(jsonText: #"{"url": "https://p.example/h", "headers": [], "body": "{}"}"#))
        guard case .webhook(let read) = DeliveryPayload(stored: old, channel: .webhook) else { Issue.record("unreadable"); return }
        #expect(!read.unsigned)
        let signed = DeliveryPayload.webhook(.init(url: "https://p.example/h", headers: [], body: "{}"))
        #expect(signed.json["unsigned"] == nil, "a signed row keeps the shape older versions wrote")
    }
}
