import Foundation
import RelayModel
@testable import RelayRules
import Testing

/// Issue 46: what each chat preset posts, for items and for operational alerts.
@Suite("Chat presets")
struct ChatPresetTests {
    static func body(_ preset: String, extra: String = "", brand: String? = "nike", when: String = "{transition: [result.final]}") throws -> JSONValue {
        let rules = try WebhookBodyTests.rules("""
                  - webhook: {url: "https://chat.example/hook/SECRET", preset: \(preset)\(extra)}
            """, when: when)
        return try WebhookBodyTests.planned(rules, brand: brand).1
    }

    /// The line a preset posts, wherever the preset's shape keeps it.
    static func line(_ body: JSONValue) -> String? {
        body["text"]?.stringValue ?? body["content"]?.stringValue
            ?? body["attachments"]?.arrayValue?.first?["content"]?["body"]?.arrayValue?.first?["text"]?.stringValue
    }

    @Test func eachPresetSaysWhatHappenedInItsShape() throws {
        for preset in ChatPreset.allCases {
            let body = try Self.body(preset.rawValue)
            let line = try #require(Self.line(body), "\(preset): \(body.jsonText)")
            for part in ["result.final", "E1", "sku-1", "nike", "air", "Authentic", "none", "https://c.example/1"] {
                #expect(line.contains(part), "\(preset) line lacks \(part): \(line)")
            }
        }
        #expect(try Self.line(Self.body("slack"))?.contains("<https://c.example/1|certificate>") == true)
        #expect(try Self.line(Self.body("discord"))?.contains("[certificate](https://c.example/1)") == true)
        let teams = try Self.body("teams")
        #expect(teams["type"]?.stringValue == "message")
        let attachment = try #require(teams["attachments"]?.arrayValue?.first)
        #expect(teams["attachments"]?.arrayValue?.count == 1)
        #expect(attachment["contentType"]?.stringValue == "application/vnd.microsoft.card.adaptive")
        #expect(attachment["contentUrl"] == .null)
        #expect(attachment["content"]?["type"]?.stringValue == "AdaptiveCard")
        #expect(attachment["content"]?["version"]?.stringValue == "1.4")
        #expect(attachment["content"]?["$schema"]?.stringValue == "http://adaptivecards.io/schemas/adaptive-card.json")
        #expect(attachment["content"]?["body"]?.arrayValue?.first?["wrap"]?.boolValue == true)
        #expect(try Self.body("discord")["allowed_mentions"]?["parse"]?.arrayValue?.isEmpty == true, "item data cannot ping everyone")
    }

    @Test func slackEscapesItsMarkupInValues() throws {
        let line = try #require(Self.line(Self.body("slack", brand: "<!channel> & <https://evil.example|x>")))
        #expect(line.contains("&lt;!channel&gt; &amp; &lt;https://evil.example|x&gt;"))
        #expect(!line.contains("<!channel>"))
    }

    /// Item data that Google Chat reads as mention-all, or markdown reads as a link, renders inert in each
    /// preset, and the body is still JSON; the preset's own link stays a link.
    @Test func itemDataCannotPingOrLinkInAnyPreset() throws {
        let hostile = ["<users/all>", "[Certificate](https://evil.example)"]
        let inert: [ChatPreset: [String]] = [
            .slack: ["&lt;users/all&gt;", "[Certificate](https://evil.example)"],
            .googleChat: ["&lt;users/all&gt;", "[Certificate](https://evil.example)"],
            .discord: ["\\<users/all\\>", "\\[Certificate\\]\\(https://evil.example\\)"],
            .teams: ["\\<users/all\\>", "\\[Certificate\\]\\(https://evil.example\\)"],
        ]
        for preset in ChatPreset.allCases {
            for (value, expected) in zip(hostile, inert[preset]!) {
                let subject = RuleMatchingTests.subject(customerItemID: value)
                let rules = try WebhookBodyTests.rules("""
                          - webhook: {url: "https://chat.example/hook", preset: \(preset.rawValue)}
                    """)
                let planned = DeliveryPlanner.plan(rules: rules, item: subject.item, transitions: [subject.transition],
                                                   occurredAt: subject.occurredAt)
                guard case .webhook(let hook) = try #require(planned.first).payload else { Issue.record("no webhook"); continue }
                let body = try #require(JSONValue(jsonText: hook.body), "\(preset): not JSON: \(hook.body)")
                let line = try #require(Self.line(body))
                #expect(line.contains("(\(expected))"), "\(preset): \(line)")
                #expect(!line.contains("<users/all>"), "\(preset): \(line)")
                let link = preset == .slack || preset == .googleChat ? "<https://c.example/1|certificate>" : "[certificate](https://c.example/1)"
                #expect(line.contains(link), "\(preset): \(line)")
            }
        }
        // Slack's and Google Chat's `<url|text>` in a value is no link either.
        #expect(ChatPreset.googleChat.escaped(["brand": "<https://evil.example|x>"])["brand"] == "&lt;https://evil.example|x&gt;")
        // A URL value cannot end its link's destination and open another.
        let url = ChatPreset.discord.escaped(["photo_url": "https://p.example/a b)[x](https://evil.example"])["photo_url"]
        #expect(url == "https://p.example/a%20b%29%5Bx%5D%28https://evil.example")
    }

    @Test func discordContentIsCutToTwoThousandCharacters() throws {
        let long = String(repeating: "é😀", count: 3000)
        let content = try #require(Self.body("discord", brand: long)["content"]?.stringValue)
        #expect(content.utf16.count <= 2000 && content.utf16.count >= 1990)
        #expect(content.hasSuffix("…"))
        let short = try #require(Self.body("slack", brand: long)["text"]?.stringValue)
        #expect(short.utf16.count <= 4000)
    }

    @Test func aRuleMayWriteThePresetsLine() throws {
        let body = try Self.body("google_chat", extra: ", text: \"{{brand}} {{customer_item_id}} is final\"", brand: "Ni\"ke\n")
        #expect(body["text"]?.stringValue == "Ni\"ke\n sku-1 is final")
        #expect(body.objectValue?.count == 1)
    }

    @Test func operationalAlertsRenderThroughPresets() throws {
        let rules = try WebhookBodyTests.rules("""
                  - webhook: {url: "https://hooks.slack.com/services/T/B/X", preset: slack}
                  - webhook: {url: "https://prod.westeurope.logic.azure.com/workflows/1/triggers", preset: teams}
            """, when: "{transition: [delivery.dead, target.opened]}")
        let event = OperationalEvent(kind: .deliveryDead, occurredAt: Date(), target: "https://partner.example",
                                     error: "HTTP 410", delivery: OperationalRuleTests.dead)
        let planned = DeliveryPlanner.plan(rules: rules, event: event)
        #expect(planned.count == 2)
        for delivery in planned {
            guard case .webhook(let hook) = delivery.payload else { Issue.record("no webhook"); continue }
            let body = try #require(JSONValue(jsonText: hook.body))
            let line = try #require(Self.line(body))
            for part in ["delivery.dead", "https://partner.example", "42", "partner", "E1", "9 attempts", "HTTP 410"] {
                #expect(line.contains(part), "\(delivery.target) line lacks \(part): \(line)")
            }
        }
    }
}
