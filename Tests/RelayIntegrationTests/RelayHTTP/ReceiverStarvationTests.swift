import Foundation
import Testing

/// Issue 27, 1: unauthenticated clients dripping bodies could hold every body slot, so a real,
/// signed webhook got 503. Now a request without a signature header never takes a slot, and
/// one client address takes at most ENTRUPY_RELAY_WEBHOOK_BODIES_PER_CLIENT of them.
@Suite("The receiver cannot be starved", .timeLimit(.minutes(3)))
struct ReceiverStarvationTests {
    static func dripHead(signed: Bool) -> String {
        "POST /webhooks/entrupy HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n"
            + (signed ? "Entrupy-Signature: sha256=0000\r\n" : "") + "\r\n"
    }

    static let env = ["ENTRUPY_RELAY_WEBHOOK_MAX_CONCURRENT_BODIES": "8", "ENTRUPY_RELAY_WEBHOOK_BODIES_PER_CLIENT": "4", "ENTRUPY_RELAY_WEBHOOK_BODY_TIMEOUT_SECONDS": "20",
                      "ENTRUPY_RELAY_HTTP_IDLE_TIMEOUT_SECONDS": "30"]

    /// Starts `count` drips, waits until they are being read, runs `body`, then ends the drips.
    static func whileDripping(_ relay: TestRelay, count: Int, signed: Bool,
                              _ body: @Sendable () async throws -> Void) async throws -> [String] {
        let drips = (0..<count).map { _ in
            Task { try await dripHTTP(port: relay.port, head: dripHead(signed: signed), interval: .milliseconds(200), limit: .seconds(8)) }
        }
        try await Task.sleep(for: .seconds(1))
        try await body()
        var answers: [String] = []
        for drip in drips {
            drip.cancel()
            answers.append((try? await drip.value.answer) ?? "")
        }
        return answers
    }

    @Test func unsignedDripsTakeNoSlot() async throws {
        try await TestRelay.withFresh(env: Self.env) { relay async throws in
            let answers = try await Self.whileDripping(relay, count: 12, signed: false) { () async throws in
                #expect(try await relay.post(WebhookFixture.session(1)).status == 200)
            }
            #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 401") }, "\(answers.map { $0.prefix(20) })")
        }
    }

    @Test func oneAddressTakesOnlyItsShare() async throws {
        try await TestRelay.withFresh(env: Self.env) { relay async throws in
            // The drips come straight from 127.0.0.1; the real sender through the trusted proxy (127.0.0.1) from another address.
            let answers = try await Self.whileDripping(relay, count: 12, signed: true) { () async throws in
                let response = try await relay.post(WebhookFixture.session(2), extraHeaders: [("X-Forwarded-For", "198.51.100.7")])
                #expect(response.status == 200, "\(response.body)")
            }
            // The dripping address got at most its 4 slots: the rest were refused at once.
            #expect(answers.filter { $0.hasPrefix("HTTP/1.1 503") }.count >= 8, "\(answers.map { $0.prefix(20) })")
        }
    }
}
