import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import Testing
@testable import RelayModel

@Suite("Webhook receiver against real PostgreSQL", .timeLimit(.minutes(3)))
struct ReceiverTests {
    @Test func acceptedWebhookIsStoredWholeWithItsJobBeforeTheAnswer() async throws {
        try await TestRelay.withFresh { relay async throws in
            let fixture = WebhookFixture.entrupy(#"{"event":"session.completed","id":"evt-1","data":{"item":{"entrupy_id":"ENT-7"}},"text_fields":{"sku":"sku-7"},"extra":{"kept":true}}"#)
            let response = try await relay.post(fixture, extraHeaders: [("X-Request-Id", "req-abc")])
            #expect(response.status == 200)
            #expect(response.json?["duplicate"] as? Bool == false)
            let id = try #require(response.json?["id"] as? Int)
            #expect(response.header("X-Request-Id") == "req-abc")

            // Committed before the answer: visible at once from another connection.
            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 1)
            #expect(try await relay.count("""
                SELECT count(*) FROM webhook_events WHERE id = \(id) AND event_type = 'session.completed'
                  AND event_id = 'evt-1' AND entrupy_id = 'ENT-7' AND customer_item_id = 'sku-7' AND state = 'queued'
                  AND verified_by = 'entrupy-signature' AND client_address = '127.0.0.1' AND request_id = 'req-abc'
                  AND body = convert_to(\(sqlLiteral(String(decoding: fixture.body, as: UTF8.self))), 'UTF8')
                  AND headers ? 'entrupy-signature' AND duplicates = 0
                """) == 1)
            #expect(try await relay.count(
                "SELECT count(*) FROM jobs WHERE kind = 'reconcile_webhook' AND state = 'available' AND (args->>'webhook_event_id')::bigint = \(id)"
            ) == 1)
        }
    }

    /// The batch's statement does not notify (that would make concurrent batches commit one
    /// at a time); the statement after it does, once the commit is durable. So a listener
    /// hears of the job, and by then it is committed and claimable.
    @Test func anAcceptedWebhookWakesTheWorkersAfterItsCommit() async throws {
        try await TestRelay.withFresh { relay async throws in
            let jobsWhenWoken = try await WakeListener.firstWake(relay.database, during: {
                let response = try await relay.post(WebhookFixture.entrupy(#"{"id":"evt-wake","entrupy_id":"E9"}"#))
                #expect(response.status == 200)
            }, then: {
                try await relay.count("SELECT count(*) FROM jobs WHERE kind = 'reconcile_webhook' AND state = 'available'")
            })
            #expect(jobsWhenWoken == 1)
        }
    }

    /// Issue 30: two deliveries are one event only when their bodies are the same or a signed
    /// webhook-id says so; a body id seen before with another body is its own event, counted.
    @Test func duplicatesAreCountedNotStoredAgain() async throws {
        try await TestRelay.withFresh { relay async throws in
            let byID = WebhookFixture.entrupy(#"{"id":"evt-dup","entrupy_id":"E1"}"#)
            let first = try await relay.post(byID)
            let again = try await relay.post(byID)
            #expect(first.json?["duplicate"] as? Bool == false)
            #expect(again.status == 200)
            #expect(again.json?["duplicate"] as? Bool == true)
            #expect(again.json?["id"] as? Int == first.json?["id"] as? Int)

            // Same body id, another body (a session's id on its next event, say): stored, and counted.
            let sameIDOtherBody = WebhookFixture.entrupy(#"{"id":"evt-dup","entrupy_id":"E1","status":"flagged"}"#)
            let other = try await relay.post(sameIDOtherBody)
            #expect(other.json?["duplicate"] as? Bool == false && other.json?["id"] as? Int != first.json?["id"] as? Int)
            #expect(try await relay.post(sameIDOtherBody).json?["duplicate"] as? Bool == true, "the same body again is one event")
            let metrics = try await relay.request("/metrics").body
            #expect(metrics.contains("relay_webhook_reused_ids_total 1"), "\(metrics.split(separator: "\n").filter { $0.contains("reused") })")

            // No event ID: the body hash decides.
            let noID = WebhookFixture.entrupy(#"{"entrupy_id":"E2"}"#)
            #expect(try await relay.post(noID).json?["duplicate"] as? Bool == false)
            #expect(try await relay.post(noID).json?["duplicate"] as? Bool == true)

            // Standard Webhooks: webhook-id names the event.
            let standard = WebhookFixture.standard(#"{"entrupy_id":"E3"}"#, id: "msg_77")
            #expect(try await relay.post(standard).json?["duplicate"] as? Bool == false)
            #expect(try await relay.post(standard).json?["duplicate"] as? Bool == true)

            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 4)
            #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE event_id = 'evt-dup' AND duplicates = 1") == 2)
            #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE last_duplicate_at IS NOT NULL") == 4)
            #expect(try await relay.count("SELECT count(*) FROM jobs") == 4)
        }
    }

    @Test func unparseableAndUnrecognisedBodiesAreKeptAndAcknowledged() async throws {
        try await TestRelay.withFresh { relay async throws in
            #expect(try await relay.post(WebhookFixture.entrupy("this is not json")).status == 200)
            #expect(try await relay.post(WebhookFixture.entrupy(#"["an","array"]"#)).status == 200)
            #expect(try await relay.post(WebhookFixture.entrupy(#"{"event":"certificate.transfer","whatever":{}}"#)).status == 200)
            #expect(try await relay.post(WebhookFixture.entrupy("")).status == 200)
            #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE state = 'unparseable' AND parse_error IS NOT NULL") == 3)
            #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE state = 'unrecognised' AND event_type = 'certificate.transfer'") == 1)
            #expect(try await relay.count("SELECT count(*) FROM jobs") == 0)
        }
    }

    @Test func badSignaturesAreRefusedAndStoreNothing() async throws {
        try await TestRelay.withFresh { relay async throws in
            let good = WebhookFixture.entrupy(#"{"id":"e","entrupy_id":"E"}"#)
            var tampered = good
            tampered.body[5] ^= 1
            let wrongSecret = WebhookFixture.entrupy(#"{"id":"e","entrupy_id":"E"}"#, secret: "not-the-secret")
            let unsigned = WebhookFixture(body: good.body, headers: [("Content-Type", "application/json")])
            let garbage = WebhookFixture(body: good.body, headers: [("Entrupy-Signature", "sha256=nothex")])
            let stale = WebhookFixture.standard(#"{"entrupy_id":"E"}"#, id: "m1", timestamp: Date(timeIntervalSinceNow: -3600))
            for fixture in [tampered, wrongSecret, unsigned, garbage, stale] {
                let response = try await relay.post(fixture)
                #expect(response.status == 401)
                #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
                let error = try #require(response.json?["error"] as? [String: Any])
                let message = try #require(error["message"] as? String)
                #expect(!message.isEmpty)
                // Nothing about the set-up: which secrets exist, or which scheme matched none.
                #expect(!message.contains("secret") && !message.contains("configured") && !message.contains("Standard"), "\(message)")
            }
            // A Standard Webhooks signature that matches no secret is told only that.
            var forged = WebhookFixture.standard(#"{"entrupy_id":"E"}"#, id: "m2", timestamp: Date())
            forged.body[3] ^= 1
            let refused = try await relay.post(forged)
            #expect(refused.status == 401)
            #expect((refused.json?["error"] as? [String: Any])?["message"] as? String == "invalid signature")
            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 0)
            #expect(try await relay.count("SELECT count(*) FROM jobs") == 0)
            let metrics = try await relay.request("/metrics").body
            #expect(metrics.contains(#"relay_webhook_requests_total{outcome="unauthorized"}"#))
        }
    }

    @Test func oversizeBodiesGet413WithoutBeingStored() async throws {
        try await TestRelay.withFresh(env: ["ENTRUPY_RELAY_WEBHOOK_MAX_BODY_BYTES": "1024"]) { relay async throws in
            let big = WebhookFixture.entrupy(#"{"entrupy_id":"E","pad":""# + String(repeating: "x", count: 4000) + #""}"#)
            let declared = try await relay.post(big)
            #expect(declared.status == 413)
            #expect((declared.json?["error"] as? [String: Any])?["message"] as? String == "request body exceeds 1024 bytes")

            // Chunked: no Content-Length, so the limit is enforced while streaming.
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(relay.port)/webhooks/entrupy")
            request.method = .POST
            for (name, value) in big.headers { request.headers.add(name: name, value: value) }
            let chunks = stride(from: 0, to: big.body.count, by: 500).map { ByteBuffer(bytes: big.body[$0..<min($0 + 500, big.body.count)]) }
            request.body = .stream(chunks.async, length: .unknown)
            let streamed = try await relay.http.execute(request, timeout: .seconds(10))
            #expect(streamed.status.code == 413)

            // A body exactly at the limit is fine.
            let head = #"{"entrupy_id":"E","pad":""#, tail = #""}"#
            let fits = WebhookFixture.entrupy(head + String(repeating: "y", count: 1024 - head.utf8.count - tail.utf8.count) + tail)
            #expect(fits.body.count == 1024)
            #expect(try await relay.post(fits).status == 200)
            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 1)
        }
    }

    @Test func trustedProxyForwardedForIsRecorded() async throws {
        try await TestDatabase.with { db async throws in
            try await TestRelay.with(database: db) { relay async throws in
                let fixture = WebhookFixture.entrupy(#"{"id":"p1","entrupy_id":"E"}"#)
                #expect(try await relay.post(fixture, extraHeaders: [("X-Forwarded-For", "6.6.6.6, 203.0.113.5")]).status == 200)
                #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE client_address = '203.0.113.5'") == 1)
            }
            // Loopback not trusted: the header is ignored.
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_TRUSTED_PROXIES": "10.0.0.0/8"]) { relay async throws in
                let fixture = WebhookFixture.entrupy(#"{"id":"p2","entrupy_id":"E"}"#)
                #expect(try await relay.post(fixture, extraHeaders: [("X-Forwarded-For", "203.0.113.5")]).status == 200)
                #expect(try await relay.count("SELECT count(*) FROM webhook_events WHERE event_id = 'p2' AND client_address = '127.0.0.1'") == 1)
            }
        }
    }

    @Test func errorsAreJSONEverywhere() async throws {
        try await TestRelay.withFresh { relay async throws in
            let missing = try await relay.request("/no/such/route")
            #expect(missing.status == 404)
            #expect((missing.json?["error"] as? [String: Any])?["status"] as? Int == 404)
            let wrongMethod = try await relay.request("/webhooks/entrupy", method: .GET)
            #expect([404, 405].contains(wrongMethod.status))
            #expect(wrongMethod.json?["error"] != nil)
            #expect(try await relay.request("/healthz").status == 200)
        }
    }
}

/// Quotes text as an SQL literal for assertions in tests (the application binds every value).
func sqlLiteral(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
}

@Suite("Malformed framing", .timeLimit(.minutes(3)))
struct MalformedFramingTests {
    @Test("bad chunked framing is the client's fault: 400, never 500", arguments: [
        "ZZZ\r\n{}\r\n0\r\n\r\n", "-1\r\n", "FFFFFFFFFFFFFFFFFFFF\r\n", "2\r\n{}XX",
    ])
    func badChunks(_ chunks: String) async throws {
        try await TestRelay.withFresh { relay async throws in
            // Signed in form, so the body is read (a request without a signature header is refused before it).
            let request = "POST /webhooks/entrupy HTTP/1.1\r\nHost: relay\r\nEntrupy-Signature: sha256=00\r\nTransfer-Encoding: chunked\r\n\r\n"
                + chunks
            let answer = try await rawHTTPExchange(port: relay.port, request)
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(200))")
            #expect(try await relay.get("/healthz", token: nil).status == 200)
            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 0)
        }
    }
}

@Suite("Stalled clients", .timeLimit(.minutes(3)))
struct StalledClientTests {
    @Test func aBodyThatStopsArrivingIsCutOffAndNothingIsStored() async throws {
        try await TestRelay.withFresh(env: ["ENTRUPY_RELAY_HTTP_IDLE_TIMEOUT_SECONDS": "1"]) { relay async throws in
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: "127.0.0.1", port: relay.port).get()
            let partial = "POST /webhooks/entrupy HTTP/1.1\r\nHost: relay\r\nContent-Length: 100\r\n\r\n{\"entrupy_id\":"
            try await channel.writeAndFlush(ByteBuffer(string: partial))
            let started = ContinuousClock.now
            try await channel.closeFuture.get()
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 0)
        }
    }
}
