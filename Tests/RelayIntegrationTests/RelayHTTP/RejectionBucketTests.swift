import Foundation
import Testing

/// Issue 42, finding 8, from outside: forgeries through the trusted proxy from 60 addresses of
/// one IPv6 /64 write one client's share of `webhook_rejections`, and another sender still
/// gets its rejection written.
@Suite("Rejections per sender", .timeLimit(.minutes(2)))
struct RejectionBucketTests {
    @Test func manyAddressesOfOneSlash64FillOneClientsShare() async throws {
        try await TestRelay.withFresh { relay async throws in
            let body = Array(#"{"event":"session.completed","entrupy_id":"E-FLOOD"}"#.utf8)
            func forge(_ n: Int, from address: String) async throws -> Int {
                // Each a new shape (its length): only the per-client limit can refuse it.
                try await relay.request("/webhooks/entrupy", method: .POST,
                                        headers: [("Entrupy-Signature", String(repeating: "ab", count: 8 + n)), ("Content-Type", "application/json"),
                                                  ("X-Forwarded-For", address)], body: body).status
            }
            for n in 0..<60 {
                #expect(try await forge(n, from: "2001:db8:7:1:\(String(n, radix: 16)):0:0:\(String(n * 13 + 1, radix: 16))") == 401)
            }
            #expect(try await relay.count("SELECT count(*) FROM webhook_rejections") == 10)
            #expect(try await relay.count("SELECT count(DISTINCT client_address) FROM webhook_rejections") == 10, "the addresses are kept as they were")
            #expect(try await forge(0, from: "203.0.113.5") == 401)
            #expect(try await relay.count("SELECT count(*) FROM webhook_rejections WHERE client_address = '203.0.113.5'") == 1)
        }
    }
}
