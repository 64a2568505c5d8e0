import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayStore
import RelayWorker
import Testing

/// Each retention setting removes exactly what it names, and nothing pending or still
/// referenced: rows are seeded at known ages in SQL, one pass of the pruner runs in batches of
/// two, and every row is checked after it.
@Suite("Retention", .timeLimit(.minutes(2)))
struct PostgresRetentionStoreTests {
    static let logger = Logger(label: "retention-tests")
    static let policy = RetentionPolicy(days: [
        .webhookBodies: 30, .webhookEvents: 400, .reconciliations: 90, .deliveryPayloads: 30, .deliveryAttempts: 400, .sdkUsers: 730,
    ])

    /// Seeds one item with webhooks, fetch records, transitions, deliveries and SDK users at the ages their names give.
    static func seed(_ client: PostgresClient) async throws {
        let statements: [PostgresQuery] = [
            """
            INSERT INTO items (entrupy_id, customer_item_id, result, result_final, username, fetched_at, raw)
            VALUES ('ENT-RET', 'sku-ret', 'authentic', true, 'ret-user', now(), '{}')
            """,
            """
            INSERT INTO webhook_events (dedup_key, event_id, event_type, entrupy_id, state, verified_by, body, body_sha256, headers, received_at)
            SELECT 'k-' || name, name, 'support.message', 'ENT-RET', state, 'entrupy-signature',
                   convert_to('{"data":{"message":"hello ' || name || '"}}', 'UTF8'), 'sha', '{"x":"1"}', now() - make_interval(days => age)
            FROM (VALUES ('processed-40d', 'processed', 40), ('queued-40d', 'queued', 40), ('processed-1d', 'processed', 1),
                         ('processed-500d', 'processed', 500), ('failed-40d', 'failed', 40)) AS t (name, state, age)
            """,
            """
            INSERT INTO reconciliations (entrupy_id, at, source, outcome, note)
            VALUES ('ENT-RET', now() - interval '100 days', 'webhook', 'changed', 'old'),
                   ('ENT-RET', now() - interval '5 days', 'webhook', 'unchanged', 'recent')
            """,
            """
            INSERT INTO item_events (entrupy_id, kind, to_value, source, occurred_at)
            SELECT 'ENT-RET', 'result.final', name, 'webhook', now() - make_interval(days => age)
            FROM (VALUES ('e41', 41), ('e440', 440), ('e500-done', 500), ('e500-pending', 500), ('e1', 1)) AS t (name, age)
            """,
            """
            INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, state, attempts,
                                   created_at, updated_at, delivered_at, next_attempt_at)
            SELECT e.id, 'ENT-RET', 'r-' || e.to_value, 0, 'webhook', 'https://example.com/hook',
                   '{"url":"https://example.com/hook","headers":[],"body":"{}"}', state, 1,
                   now() - make_interval(days => final_age + 1), now() - make_interval(days => final_age),
                   CASE WHEN state = 'delivered' THEN now() - make_interval(days => final_age) END,
                   CASE WHEN state = 'pending' THEN now() END
            FROM item_events e
            JOIN (VALUES ('e41', 'delivered', 40), ('e440', 'dead', 410), ('e500-done', 'delivered', 499),
                         ('e500-pending', 'pending', 499), ('e1', 'delivered', 1)) AS t (name, state, final_age) ON t.name = e.to_value
            """,
            """
            INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, response_excerpt)
            SELECT id, 1, updated_at, 5, CASE WHEN state = 'pending' THEN 'failed' ELSE state END, 200, 'ok from partner' FROM deliveries
            """,
            """
            INSERT INTO sdk_users (unique_user_id, username, email, last_authorized_at)
            VALUES ('old-user-1', 'old', 'old@example.com', now() - interval '800 days'),
                   ('new-user-1', 'new', 'new@example.com', now() - interval '10 days')
            """,
        ]
        for statement in statements { try await client.query(statement, logger: logger) }
    }

    static func strings(_ client: PostgresClient, _ query: PostgresQuery) async throws -> [String] {
        var values: [String] = []
        for try await value in try await client.query(query, logger: logger).decode(String.self) { values.append(value) }
        return values
    }

    /// A pruner without pauses; with `walBudget`, batches sized by the WAL they write.
    static func pruner(_ store: PostgresRetentionStore, _ policy: RetentionPolicy, batch: Int, walBudget: Int = 0) -> Pruner {
        Pruner(store: store, policy: policy, pacing: PrunePacing(largestBatch: batch, pause: .zero, walBytesPerSecond: walBudget),
               logger: logger)
    }

    @Test func aBatchSaysHowMuchWriteAheadLogItWrote() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await Self.seed(client)
            let store = PostgresRetentionStore(client: client, logger: Self.logger)
            let cutoff = Date().addingTimeInterval(-30 * 86_400)
            let first = try await store.pruneBatch(.webhookBodies, before: cutoff, limit: 1, measuringWAL: true)
            #expect(first.rows == 1)
            #expect((first.walBytes ?? 0) > 0, "removing a body writes to the WAL, and the batch measures it")
            let unmeasured = try await store.pruneBatch(.webhookBodies, before: cutoff, limit: 1, measuringWAL: false)
            #expect(unmeasured.rows == 1 && unmeasured.walBytes == nil, "without a budget the position is not read")
        }
    }

    @Test func eachSettingRemovesWhatItNamesAndNothingPending() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await Self.seed(client)
            let store = PostgresRetentionStore(client: client, logger: Self.logger)
            let pruner = Self.pruner(store, Self.policy, batch: 2, walBudget: 64 << 20)
            let estimated = try await pruner.estimates().estimates.mapValues(\.rows)
            let pruned = try #require(try await pruner.pass())
            // The 500-day event's row goes first, so its body is not removed on its own.
            #expect(pruned == [.webhookBodies: 2, .webhookEvents: 1, .reconciliations: 1, .deliveryPayloads: 3,
                               .deliveryAttempts: 2, .sdkUsers: 1])
            #expect(estimated == pruned, "the dry run's counts are what the pass removed")

            // Webhooks: bodies of finished events past 30 days gone, rows past 400 days gone, queued untouched.
            #expect(try await Self.strings(client, """
                SELECT event_id || ':' || coalesce(body_removed, 'kept') || ':' || (headers = '{}')::text
                FROM webhook_events ORDER BY event_id
                """) == ["failed-40d:expired:true", "processed-1d:kept:false", "processed-40d:expired:true", "queued-40d:kept:false"])
            // Fetch records past 90 days.
            #expect(try await Self.strings(client, "SELECT note FROM reconciliations ORDER BY id") == ["recent"])
            // Deliveries: payloads of finished ones past 30 days, attempts of finished ones past 400 days; a pending one
            // (however old) keeps everything. Timeline rows are kept while their item is.
            #expect(try await Self.strings(client, """
                SELECT d.rule || ':' || d.state || ':' || coalesce(d.payload_removed, 'payload') || ':'
                       || CASE WHEN d.attempts_removed_at IS NULL THEN 'attempts' ELSE 'no-attempts' END || ':'
                       || (SELECT count(*) FROM delivery_attempts a WHERE a.delivery_id = d.id)
                       || ':' || coalesce((SELECT min(a.response_excerpt) FROM delivery_attempts a WHERE a.delivery_id = d.id), '-')
                FROM deliveries d ORDER BY d.rule
                """) == ["r-e1:delivered:payload:attempts:1:ok from partner", "r-e41:delivered:expired:attempts:1:-",
                         "r-e440:dead:expired:no-attempts:0:-", "r-e500-done:delivered:expired:no-attempts:0:-",
                         "r-e500-pending:pending:payload:attempts:1:ok from partner"])
            #expect(try await Self.strings(client, "SELECT to_value FROM item_events ORDER BY to_value")
                    == ["e1", "e41", "e440", "e500-done", "e500-pending"])
            #expect(try await Self.strings(client, "SELECT unique_user_id FROM sdk_users") == ["new-user-1"])
            #expect(try await Self.strings(client, "SELECT entrupy_id FROM items") == ["ENT-RET"], "items are never pruned")

            // A second pass finds nothing left to do.
            #expect(try #require(try await pruner.pass()).values.allSatisfy { $0 == 0 })

            // The timeline still reads, and says what expired.
            let detail = try #require(try await PostgresItemStore(client: client, logger: Self.logger).detail("ENT-RET"))
            let lines = detail.timeline.map(\.summary)
            #expect(lines.contains { $0.hasPrefix("support.message received (processed)") && $0.hasSuffix("body expired") })
            #expect(detail.notes.contains { $0.text == "body expired" })
            #expect(detail.notes.contains { $0.text == "hello processed-1d" })
            #expect(lines.contains { $0.contains("r-e440: webhook to https://example.com/hook, dead after 1 attempt(s); attempt records expired") })

            // A delivery without its payload cannot be redriven, and says why.
            let deliveries = PostgresDeliveryStore(client: client, logger: Self.logger)
            let dead = try #require(try await Self.strings(client, "SELECT id::text FROM deliveries WHERE rule = 'r-e440'").first.flatMap { Int64($0) })
            #expect(try await deliveries.retry(id: dead) == .payloadRemoved("expired"))
        }
    }

    /// A silenced delivery is finished as a dead one is: its payload and attempts expire after
    /// the same time (migration 0044), not never.
    @Test func aSilencedDeliveryIsPrunedLikeADeadOne() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await Self.seed(client)
            try await client.query("UPDATE deliveries SET state = 'silenced' WHERE rule = 'r-e440'", logger: Self.logger)
            let store = PostgresRetentionStore(client: client, logger: Self.logger)
            let pruner = Self.pruner(store, Self.policy, batch: 2)
            let estimated = try await pruner.estimates().estimates.mapValues(\.rows)
            #expect(estimated[.deliveryPayloads] == 3 && estimated[.deliveryAttempts] == 2, "\(estimated)")
            _ = try #require(try await pruner.pass())
            #expect(try await Self.strings(client, """
                SELECT state || ':' || coalesce(payload_removed, 'payload') || ':' || (attempts_removed_at IS NOT NULL)::text
                FROM deliveries WHERE rule = 'r-e440'
                """) == ["silenced:expired:true"])
        }
    }

    @Test func onlyOneReplicaPrunesAtATimeAndZeroKeepsForEver() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await Self.seed(client)
            let store = PostgresRetentionStore(client: client, logger: Self.logger)
            let held = try await store.whileHoldingLock {
                let other = Self.pruner(store, Self.policy, batch: 10)
                return try await other.pass() == nil
            }
            #expect(held == true, "a second pruner skips the pass while the first holds the lock")
            let keepAll = Self.pruner(store, RetentionPolicy(days: [:]), batch: 10)
            #expect(try await keepAll.pass() == [:])
            #expect(try await Self.strings(client, "SELECT count(*)::text FROM webhook_events WHERE body IS NOT NULL") == ["5"])
        }
    }
}
