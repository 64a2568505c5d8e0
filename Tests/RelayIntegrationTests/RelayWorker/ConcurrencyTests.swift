import Foundation
import Testing

@Suite("Concurrent deliveries", .timeLimit(.minutes(3)))
struct ConcurrencyTests {
    @Test func twoHundredDistinctWebhooksAreEachStoredExactlyOnce() async throws {
        try await TestDatabase.with { db async throws in
            // Exactly once is the point, not speed: a loaded suite on 2 cores may take longer than the
            // 5 s store deadline for some of these, which would answer 503 (Entrupy retries those).
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS": "30000"]) { relay async throws in
                let run = UUID().uuidString
                let statuses = try await withThrowingTaskGroup(of: (Int, Bool?).self) { group in
                    for n in 0..<200 {
                        group.addTask {
                            let response = try await relay.post(WebhookFixture.session(n, run: run))
                            return (response.status, response.json?["duplicate"] as? Bool)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.count == 200)
                #expect(statuses.allSatisfy { $0.0 == 200 && $0.1 == false }, "\(statuses.filter { $0.0 != 200 }.map(\.0))")
                #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 200)
                #expect(try await relay.count("SELECT count(DISTINCT entrupy_id) FROM webhook_events") == 200)
                #expect(try await relay.count("SELECT count(*) FROM jobs WHERE kind = 'reconcile_webhook'") == 200)
                #expect(try await relay.count("SELECT count(DISTINCT args->>'webhook_event_id') FROM jobs") == 200)
            }
        }
    }

    @Test func theSameWebhookSentTwentyTimesAtOnceIsStoredOnce() async throws {
        try await TestDatabase.with { db async throws in
            // Exactly once is the point, not speed: a loaded suite on 2 cores may take longer than the
            // 5 s store deadline for some of these, which would answer 503 (Entrupy retries those).
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS": "30000"]) { relay async throws in
                let fixture = WebhookFixture.entrupy(#"{"id":"evt-storm","entrupy_id":"ENT-S"}"#)
                let answers = try await withThrowingTaskGroup(of: (Int, Int?, Bool?).self) { group in
                    for _ in 0..<20 {
                        group.addTask {
                            let response = try await relay.post(fixture)
                            return (response.status, response.json?["id"] as? Int, response.json?["duplicate"] as? Bool)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.0 == 200 })
                #expect(Set(answers.compactMap(\.1)).count == 1)
                #expect(answers.filter { $0.2 == false }.count == 1)
                #expect(answers.filter { $0.2 == true }.count == 19)
                #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 1)
                #expect(try await relay.count("SELECT duplicates FROM webhook_events") == 19)
                #expect(try await relay.count("SELECT count(*) FROM jobs") == 1)
            }
        }
    }
}
