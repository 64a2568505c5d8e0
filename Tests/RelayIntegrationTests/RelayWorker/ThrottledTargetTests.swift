import Foundation
import PostgresNIO
import RelayModel
import RelayRules
import Testing

/// Issue 46, per-target throttle, end to end: a callback endpoint limited to 5 deliveries a
/// second by the rules file, two worker processes sharing its slots through PostgreSQL, and a
/// backlog of 500 held deliveries released at once. Takes about 100 s (500 at 5 a second).
@Suite("Throttled targets across workers", .timeLimit(.minutes(5)))
struct ThrottledTargetTests {
    static let backlog = 500

    static func rules(_ callbacks: TestCallbackServer) -> String {
        ThrottleRateChangeTests.rules(callbacks, rate: "5/s")
    }

    /// The fingerprint of the rule's signing secret, as the planner stores it with a delivery.
    static func signingKeyID(_ rules: String) throws -> String {
        let parsed = try RuleSetParser(secret: { $0 == "CALLBACK_SECRET" ? TestCallbackServer.secret : nil }).parse(rules)
        guard case .webhook(let action)? = parsed.rules.first?.actions.first, let id = action.signingKeyID else {
            throw CancellationError()
        }
        return id
    }

    /// `count` items, each with one delivery to the endpoint, held under its key by an
    /// operator's disable: what an outage leaves behind. Their jobs are made by the drain.
    static func seedHeldBacklog(_ database: DatabaseURL, url: String, keyID: String, count: Int = backlog) async throws {
        let key = TargetKey.endpoint(of: url)
        try await TestDatabase.withClient(database) { client in
            try await client.query("""
                INSERT INTO delivery_targets (key, state, disabled_by) VALUES (\(key), 'disabled', 'token ops')
                """, logger: TestDatabase.logger)
            try await client.query("""
                INSERT INTO items (entrupy_id, result, result_final, flag, fetched_at, raw)
                SELECT 'E-throttle-' || n, 'authentic', true, 'none', now(), '{}' FROM generate_series(1, \(count)) AS n
                """, logger: TestDatabase.logger)
            try await client.query("""
                INSERT INTO item_events (entrupy_id, kind, source, occurred_at)
                SELECT 'E-throttle-' || n, 'result.final', 'webhook', now() FROM generate_series(1, \(count)) AS n
                """, logger: TestDatabase.logger)
            try await client.query("""
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id,
                                        held_target, held_since)
                SELECT ev.id, ev.entrupy_id, 'partner', 0, 'webhook', \(MaskedURL.mask(url)),
                       jsonb_build_object('url', \(url)::text, 'headers', '[]'::jsonb, 'body', '{"n": ' || ev.id || '}'),
                       \(keyID), \(key), now()
                FROM item_events ev WHERE ev.entrupy_id LIKE 'E-throttle-%'
                """, logger: TestDatabase.logger)
        }
    }

    /// The most arrivals within any one second.
    static func busiestSecond(_ times: [Double]) -> Int {
        var busiest = 0, start = 0
        for end in times.indices {
            while times[end] - times[start] >= 1.0 { start += 1 }
            busiest = max(busiest, end - start + 1)
        }
        return busiest
    }

    static func throttledSnoozes(_ metrics: [String]) -> Int {
        metrics.reduce(0) { total, text in
            let line = text.split(separator: "\n").first { $0.hasPrefix("relay_deliveries_throttled_total{channel=\"webhook\"}") }
            return total + (line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0)
        }
    }

    @Test func aThrottledTargetDrainsItsBacklogAtItsRateAcrossTwoWorkers() async throws {
        try await TestCallbackServer.with { callbacks in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let rules = Self.rules(callbacks)
                try await Self.seedHeldBacklog(stack.database, url: callbacks.url("/ok"), keyID: try Self.signingKeyID(rules))
                // The drain releases 50 a second, ten times the rate: the throttle, not the drain, sets the pace.
                let env = try NotifyEnvironment.make(rules: rules, extra: WorkerProcessTests.workerEnv(stack.simulator, [
                    "ENTRUPY_RELAY_TARGET_DRAIN_PER_SECOND": "50", "ENTRUPY_RELAY_LOG_LEVEL": "warning",
                ]))
                let cli = CommandLineTests.environment(stack.database, env)
                let listed = try await CommandLineTests.run(["targets", "list", "--json"], env: cli)
                let targets = try #require(JSONValue(jsonText: listed.stdout)?.arrayValue, "\(listed.stderr)")
                // The disabled endpoint shows its origin's limit; the origin, with no row, is listed for it.
                #expect(targets.map { $0["rate_limit"]?.stringValue } == ["5/s", "5/s"], "\(listed.stdout)")
                #expect(targets.last?["target"]?.stringValue == "http://127.0.0.1:\(callbacks.port)")

                let ports = [try await freePort(), try await freePort()]
                let workers = try ports.map { try RelayProcess(["worker", "--port", String($0)], database: stack.database, env: env) }
                try await Task.sleep(for: .seconds(2))
                try await TestDatabase.execute(stack.database, "UPDATE delivery_targets SET state = 'healthy', disabled_by = NULL")
                let started = ContinuousClock.now
                #expect(try await eventually(timeout: .seconds(160)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == Self.backlog
                })
                let elapsed = ContinuousClock.now - started
                let arrivals = try callbacks.requests()
                let times = arrivals.filter { $0.status == 200 }.map(\.receivedAt).sorted()
                #expect(times.count == Self.backlog && arrivals.allSatisfy(\.verified), "\(arrivals.count) arrivals")
                let span = (times.last ?? 0) - (times.first ?? 0)
                let rate = Double(max(times.count - 1, 0)) / max(span, 0.001)
                let busiest = Self.busiestSecond(Array(times.drop { $0 < (times.first ?? 0) + 1 }))
                #expect((4.0...6.0).contains(rate), "drained at \(rate) a second")
                #expect(busiest <= 6, "\(busiest) arrivals in one second")
                // Each sent once, by both replicas between them; many were put off, none burnt an attempt.
                #expect(try await stack.count("SELECT count(*) FROM delivery_attempts") == Self.backlog)
                #expect(try await stack.count("SELECT count(DISTINCT worker) FROM delivery_attempts") == 2)
                var metrics: [String] = []
                for port in ports { metrics.append(try await HTTPProbe(port: port).body("/metrics")) }
                let snoozes = Self.throttledSnoozes(metrics)
                print("throttle: \(times.count) deliveries in \(span) s (\(rate)/s), at most \(busiest) in a second, "
                    + "\(snoozes) throttled snoozes; drained in \(elapsed)")
                #expect(snoozes >= Self.backlog / 2, "\(snoozes) throttled snoozes")
                for worker in workers { #expect(await worker.stop() == 0) }
            }
        }
    }
}
