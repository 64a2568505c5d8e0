import Foundation
import RelayModel
import Testing

/// Issue 46: each chat preset delivered through the worker to a sink that checks the shape the
/// service documents (400 otherwise); chat targets without a secret go unsigned, every other
/// callback stays signed; a custom body reaches the partner in its own field names.
@Suite("Chat presets and body templates through the outbox", .timeLimit(.minutes(3)))
struct ChatPresetDeliveryTests {
    static func rules(slack: String, googleChat: String, discord: String, teams: String, erp: String) -> String {
        """
        rules:
          - name: chat
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "\(slack)", preset: slack}
              - webhook: {url: "\(googleChat)", preset: google_chat, unsigned: true}
              - webhook: {url: "\(discord)", preset: discord, secret: "${CALLBACK_SECRET}"}
              - webhook: {url: "\(teams)", preset: teams, text: "{{brand}} {{customer_item_id}}: {{result}}"}
              - webhook:
                  url: "\(erp)"
                  secret: ${CALLBACK_SECRET}
                  body: |
                    {"ItemRef": "{{customer_item_id}}", "Maker": "{{brand}}", "Verdict": "{{result}}",
                     "Final": "{{result_final}}"{{#certificate_url}}, "Certificate": "{{certificate_url}}"{{/certificate_url}}}
        """
    }

    static func withSinks<T: Sendable>(_ body: @escaping @Sendable ([TestChatSink]) async throws -> T) async throws -> T {
        try await TestChatSink.with("slack") { slack in
            try await TestChatSink.with("google_chat") { googleChat in
                try await TestChatSink.with("discord") { discord in
                    try await TestChatSink.with("teams") { teams in try await body([slack, googleChat, discord, teams]) }
                }
            }
        }
    }

    @Test func eachPresetIsAcceptedAndOnlyChatTargetsGoUnsigned() async throws {
        try await Self.withSinks { sinks in
            try await TestCallbackServer.with { erp async throws in
                let env = try NotifyEnvironment.make(rules: Self.rules(slack: sinks[0].url, googleChat: sinks[1].url, discord: sinks[2].url,
                                                                       teams: sinks[3].url, erp: erp.url("/ok")))
                try await ReconcileStack.with(env: env) { stack async throws in
                    let brand = #"Nike "Air" \ <!channel> @everyone"#
                    let id = try await stack.simulator.createItem("sku-chat", brand: brand, result: "authentic", final: true)
                    let delivered = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 5, state: .delivered)
                    #expect(delivered.count == 5)
                    // The chat URL is its secret: shown masked, never whole.
                    for delivery in delivered { #expect(!delivery.target.contains("secret"), "\(delivery.target)") }
                    #expect(delivered.filter { $0.signingKeyID == nil }.count == 3, "slack, google_chat and teams go unsigned")

                    for sink in sinks {
                        let requests = sink.requests()
                        #expect(requests.count == 1, "\(sink.service): \(requests.map(\.problem))")
                        let request = try #require(requests.first)
                        #expect(request.accepted, "\(sink.service) refused: \(request.problem ?? "")")
                        if sink.service == "discord" {
                            #expect(request.signed && request.verified, "a preset with a secret is still signed")
                        } else {
                            #expect(!request.signed && request.webhookHeaders.isEmpty, "\(sink.service) got \(request.webhookHeaders)")
                        }
                    }
                    let slackText = try #require(sinks[0].requests().first?.body["text"]?.stringValue)
                    #expect(slackText.contains("sku-chat") && slackText.contains("&lt;!channel&gt;"))
                    let teamsText = sinks[3].requests().first?.body["attachments"]?.arrayValue?.first?["content"]?["body"]?.arrayValue?.first?["text"]
                    // Teams renders markdown: a value's markup characters arrive backslash-escaped (inert).
                    #expect(teamsText?.stringValue == #"Nike "Air" \\ \<!channel\> @everyone sku-chat: authentic"#, "\(teamsText ?? .null)")

                    let partner = try #require(try erp.requests().first)
                    #expect(partner.verified, "a custom body is signed: \(partner.error ?? "")")
                    #expect(partner.body["Maker"]?.stringValue == brand)
                    #expect(partner.body["ItemRef"]?.stringValue == "sku-chat")
                    #expect(partner.body["Final"]?.stringValue == "true")
                    #expect(partner.body["type"] == nil, "the template replaces the relay's own body")
                }
            }
        }
    }

    /// A shape the service does not take is answered 400, as the service would: the sink is
    /// not one that accepts anything.
    @Test func theSinksRefuseWhatTheServiceWouldRefuse() async throws {
        try await Self.withSinks { sinks in
            let env = try NotifyEnvironment.make(rules: """
                rules:
                  - name: wrong-shapes
                    when: {transition: [result.final]}
                    notify:
                      - webhook: {url: "\(sinks[0].url)", preset: discord}
                      - webhook: {url: "\(sinks[1].url)", preset: teams}
                      - webhook: {url: "\(sinks[2].url)", preset: slack}
                      - webhook: {url: "\(sinks[3].url)", preset: google_chat}
                """, extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-wrong", result: "authentic", final: true)
                _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 4, state: .dead)
                for sink in sinks {
                    #expect(sink.requests().first.map { !$0.accepted && $0.problem != nil } == true, "\(sink.service) accepted a wrong shape")
                }
            }
        }
    }
}
