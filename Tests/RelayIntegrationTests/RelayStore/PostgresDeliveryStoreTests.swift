import Foundation
import PostgresNIO
import RelayModel
import Testing

/// Delivery search by every filter, through the API and the command line, on deliveries
/// written straight into the database (so their creation times are known).
@Suite("Delivery search", .timeLimit(.minutes(2)))
struct PostgresDeliveryStoreTests {
    /// Two items; six deliveries: rules a/b, targets p/q, channels, states and days apart.
    static func seed(_ database: DatabaseURL) async throws {
        try await TestDatabase.withClient(database) { client in
            try await client.query("""
                INSERT INTO items (entrupy_id, result, result_final, flag, fetched_at, raw) VALUES ('E1', 'authentic', true, 'none', now(), '{}'), ('E2', 'authentic', true, 'none', now(), '{}')
                """, logger: TestDatabase.logger)
            try await client.query("""
                INSERT INTO item_events (entrupy_id, kind, source, occurred_at)
                SELECT e, 'result.final', 'webhook', now() FROM unnest(ARRAY['E1', 'E2']) AS e
                """, logger: TestDatabase.logger)
            try await client.query("""
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, state, created_at, idempotency_key)
                SELECT ev.id, ev.entrupy_id, d.rule, d.action_index, d.channel, d.target, '{}'::jsonb, d.state,
                       timestamptz '2026-11-01T12:00:00Z' + d.day * interval '1 day', d.key
                FROM (VALUES ('E1', 'a', 0, 'webhook', 'https://p.example/***', 'delivered', 0, 'dlv_s1'),
                             ('E1', 'a', 1, 'email', 'ops@example.com', 'dead', 1, 'dlv_s2'),
                             ('E1', 'b', 0, 'webhook', 'https://q.example/***', 'failed', 2, 'dlv_s3'),
                             ('E2', 'a', 0, 'webhook', 'https://p.example/***', 'dead', 3, 'dlv_s4'),
                             ('E2', 'b', 0, 'webhook', 'https://p.example/***', 'delivered', 4, 'dlv_s5'),
                             ('E2', 'b', 1, 'email', 'ops@example.com', 'pending', 5, 'dlv_s6'))
                     AS d (item, rule, action_index, channel, target, state, day, key)
                JOIN item_events ev ON ev.entrupy_id = d.item ORDER BY d.day
                """, logger: TestDatabase.logger)
        }
    }

    @Test func everyFilterAndTheirCombinationsFindTheRightDeliveries() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            try await Self.seed(stack.database)
            let support = try await APIAccess.token(stack.database, role: .support)
            func keys(_ query: String) async throws -> [String] {
                let answer = try await stack.relay.get("/v1/deliveries?\(query)", token: support)
                let rows = try #require(answer.json?["deliveries"] as? [[String: Any]], "\(query): \(answer.body)")
                return rows.compactMap { $0["idempotency_key"] as? String }
            }
            #expect(try await keys("") == ["dlv_s6", "dlv_s5", "dlv_s4", "dlv_s3", "dlv_s2", "dlv_s1"])
            #expect(try await keys("rule=a") == ["dlv_s4", "dlv_s2", "dlv_s1"])
            #expect(try await keys("target=https://p.example/***") == ["dlv_s5", "dlv_s4", "dlv_s1"])
            #expect(try await keys("channel=email") == ["dlv_s6", "dlv_s2"])
            #expect(try await keys("state=dead") == ["dlv_s4", "dlv_s2"])
            #expect(try await keys("item=E2&rule=b") == ["dlv_s6", "dlv_s5"])
            #expect(try await keys("since=2026-11-03&until=2026-11-04") == ["dlv_s4", "dlv_s3"])
            #expect(try await keys("since=2026-11-03T12:00:00Z") == ["dlv_s6", "dlv_s5", "dlv_s4", "dlv_s3"])
            #expect(try await keys("rule=a&channel=webhook&target=https://p.example/***&state=dead&since=2026-11-02") == ["dlv_s4"])
            #expect(try await keys("webhook_id=dlv_s3") == ["dlv_s3"])
            #expect(try await keys("rule=nobody").isEmpty)
            // Paging through a filter.
            let first = try await stack.relay.get("/v1/deliveries?rule=b&limit=2", token: support)
            let cursor = try #require(first.json?["next_cursor"] as? String)
            #expect(try await keys("rule=b&limit=2&cursor=\(cursor)") == ["dlv_s3"])
            // Bad filters are named.
            let bad = try await stack.relay.get("/v1/deliveries?channel=sms", token: support)
            #expect(bad.status == 400 && bad.message?.contains("parameter \"channel\"") == true, "\(bad.body)")
            let backwards = try await stack.relay.get("/v1/deliveries?since=2026-11-05&until=2026-11-01", token: support)
            #expect(backwards.status == 400, "\(backwards.body)")

            let cli = try await CommandLineTests.run(["deliveries", "list", "--rule", "b", "--channel", "webhook", "--since", "2026-11-01", "--json"],
                                                     env: CommandLineTests.environment(stack.database))
            let rows = JSONValue(jsonText: cli.stdout)?.arrayValue ?? []
            #expect(rows.compactMap { $0["idempotency_key"]?.stringValue } == ["dlv_s5", "dlv_s3"], "\(cli.stdout) \(cli.stderr)")
            let refused = try await CommandLineTests.run(["deliveries", "list", "--channel", "pigeon"], env: CommandLineTests.environment(stack.database))
            #expect(refused.status != 0 && refused.stderr.contains("--channel"), "\(refused.stderr)")
        }
    }

    /// A bulk redrive by each filter: its dry run counts exactly what the run then retries, and
    /// those deliveries (and only those) get a deliver job. The seed is restored between filters.
    @Test func bulkRedriveByEachFilterRetriesWhatItsDryRunCounted() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            try await Self.seed(stack.database)
            let support = try await APIAccess.token(stack.database, role: .support)
            let cases: [(filter: String, keys: Set<String>)] = [
                ("{}", ["dlv_s2", "dlv_s4"]),
                (#"{"state": "failed"}"#, ["dlv_s3"]),
                (#"{"rule": "a"}"#, ["dlv_s2", "dlv_s4"]),
                (#"{"rule": "b"}"#, []),
                (#"{"target": "https://p.example/***"}"#, ["dlv_s4"]),
                (#"{"item": "E1"}"#, ["dlv_s2"]),
                (#"{"channel": "email"}"#, ["dlv_s2"]),
                (#"{"since": "2026-11-03T00:00:00Z"}"#, ["dlv_s4"]),
                (#"{"until": "2026-11-03T00:00:00Z"}"#, ["dlv_s2"]),
                (#"{"state": "failed", "rule": "b", "target": "https://q.example/***", "item": "E1", "channel": "webhook", "since": "2026-11-03T00:00:00Z", "until": "2026-11-04T00:00:00Z"}"#, ["dlv_s3"]),
            ]
            for (filter, keys) in cases {
                try await TestDatabase.withClient(stack.database) { client in
                    try await client.query("DELETE FROM jobs", logger: TestDatabase.logger)
                    try await client.query("""
                        UPDATE deliveries d SET state = s.state, schedule_base = 0
                        FROM (VALUES ('dlv_s1', 'delivered'), ('dlv_s2', 'dead'), ('dlv_s3', 'failed'), ('dlv_s4', 'dead'),
                                     ('dlv_s5', 'delivered'), ('dlv_s6', 'pending')) AS s (key, state)
                        WHERE d.idempotency_key = s.key
                        """, logger: TestDatabase.logger)
                }
                let body = filter == "{}" ? #"{"dry_run": true}"# : String(filter.dropLast()) + #", "dry_run": true}"#
                let dry = try await stack.relay.post("/v1/deliveries/retry", token: support, json: body)
                #expect(dry.status == 200 && dry.json?["matched"] as? Int == keys.count, "\(filter): \(dry.body)")
                let run = try await stack.relay.post("/v1/deliveries/retry", token: support, json: filter)
                #expect(run.status == 202 && run.json?["matched"] as? Int == keys.count && run.json?["queued"] as? Int == keys.count,
                        "\(filter): \(run.body)")
                let queued = try await TestDatabase.withClient(stack.database) { client in
                    let rows = try await client.query("""
                        SELECT d.idempotency_key FROM deliveries d JOIN jobs j ON j.unique_key = 'delivery:' || d.id
                        """, logger: TestDatabase.logger)
                    var found = Set<String>()
                    for try await key in rows.decode(String.self) { found.insert(key) }
                    return found
                }
                #expect(queued == keys, "\(filter): queued \(queued.sorted())")
            }
            #expect(try await stack.count("SELECT count(*) FROM bulk_actions WHERE matched = queued") == cases.count, "every run recorded, matched = queued")
        }
    }
}

