import Foundation
import RelayModel
import RelayStore
import Testing

/// Issue 27, 2 and 6: item data and partner answers that once stopped or leaked.
@Suite("Hostile items and partners", .timeLimit(.minutes(3)))
struct HostileItemTests {
    /// c765048 planned deliveries from the raw item: the rendered payload kept the NUL, its
    /// `::jsonb` refused it (22P05), and the whole reconcile failed on every attempt.
    @Test func aNULInAnItemWhoseRuleFiresIsStoredAndDelivered() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: """
                rules:
                  - name: partner
                    when: {transition: [result.final]}
                    notify:
                      - webhook: {url: "\(callbacks.url("/ok"))", secret: "${CALLBACK_SECRET}"}
                """)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-nul-rule", brand: "ni\u{0}ke", result: "authentic", final: true)
                #expect(try await stack.waitFor(id, result: "authentic"))
                let delivered = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .delivered)
                #expect(delivered.count == 1)
                // The callback carries the stored form of the text (the sink's log is read until its line is whole).
                #expect(try await eventually(timeout: .seconds(10)) {
                    try callbacks.requests().contains { $0.path == "/ok" && $0.body[path: "data.brand"]?.stringValue == "ni\u{FFFD}ke" }
                }, "\((try? callbacks.requests().map(\.body)) ?? [])")
                #expect(try await stack.count("SELECT count(*) FROM jobs WHERE state = 'dead'") == 0)
            }
        }
    }

    /// A redirect's Location (a partner's URL, maybe with a secret) is not copied into the
    /// delivery's error, and the target shows only the scheme and host.
    @Test func aRedirectsLocationAndAPathSecretAreNeverShown() async throws {
        try await HostileHTTPPeer.with { peer async throws in
            let env = try NotifyEnvironment.make(rules: """
                rules:
                  - name: chat
                    when: {transition: [result.final]}
                    notify:
                      - webhook: {url: "\(peer.url("/redirect/services/T0/B0/SECRET"))", secret: "${CALLBACK_SECRET}"}
                """)
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-redirect", result: "authentic", final: true)
                #expect(try await eventually(timeout: .seconds(20)) {
                    try await NotifyEnvironment.deliveries(stack.database, item: id).first?.lastError != nil
                })
                let delivery = try #require(try await NotifyEnvironment.deliveries(stack.database, item: id).first)
                #expect(delivery.target == "http://127.0.0.1:\(peer.port)/***")
                #expect(delivery.lastError?.contains("redirect not followed") == true, "\(delivery.lastError ?? "-")")
                #expect(delivery.lastError?.contains("SECRET") == false)
                #expect(try await stack.count("SELECT count(*) FROM support.deliveries WHERE target LIKE '%SECRET%'") == 0)
            }
        }
    }
}
