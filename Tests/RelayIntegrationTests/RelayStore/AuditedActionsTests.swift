import Foundation
import PostgresNIO
import RelayModel
import Testing

/// Issue 42, finding 7: an operator's enable or disable of a target is a transition naming who,
/// through the rules like the breaker's own; a bulk redrive's record exists before its work.
@Suite("Audited actions", .timeLimit(.minutes(3)))
struct AuditedActionsTests {
    static let partner = "https://partner.example"

    static func rules(_ callbacks: TestCallbackServer) -> String {
        """
        rules:
          - name: on-call
            when: {transition: [target.disabled, target.enabled]}
            notify:
              - webhook: {url: "\(callbacks.url("/ok/alerts"))", secret: "${CALLBACK_SECRET}"}
        """
    }

    static func transitions(_ database: DatabaseURL) async throws -> [String] {
        try await TestDatabase.withClient(database) { client in
            let rows = try await client.query("""
                SELECT kind || ' ' || target || ' by ' || coalesce(data->>'by', '-') FROM operational_events ORDER BY id
                """, logger: TestDatabase.logger)
            var found: [String] = []
            for try await line in rows.decode(String.self) { found.append(line) }
            return found
        }
    }

    /// Through the real route with a support token, then the command line: each change is a
    /// transition naming who made it, and the rule matching it is sent its alert.
    @Test func anOperatorsDisableAndEnableAreTransitionsThatAlert() async throws {
        try await TestCallbackServer.with { callbacks in
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks))
            try await ReconcileStack.with(env: env) { stack async throws in
                let db = stack.database, relay = stack.relay
                let support = try await APIAccess.token(db, role: .support, name: "night-shift")
                let id = try await TestDatabase.withClient(db) { client in
                    let rows = try await client.query("INSERT INTO delivery_targets (key) VALUES (\(Self.partner)) RETURNING id",
                                                      logger: TestDatabase.logger)
                    for try await id in rows.decode(Int64.self) { return id }
                    return 0
                }
                let disabled = try await relay.post("/v1/targets/\(id)/disable", token: support)
                #expect(disabled.status == 200 && disabled.json?["state"] as? String == "disabled", "\(disabled.body)")
                #expect(try await Self.transitions(db) == ["target.disabled \(Self.partner) by token night-shift"])
                let sent = try await callbacks.waitForRequests(1, path: "/ok/alerts")
                let planned = try await TestDatabase.withClient(db) { client in
                    let rows = try await client.query("""
                        SELECT d.state || ' ' || d.target || ' ' || coalesce(d.last_error, '-') || ' job ' || coalesce(j.state::text, 'none')
                        FROM deliveries d LEFT JOIN jobs j ON j.unique_key = 'delivery:' || d.id
                        """, logger: TestDatabase.logger)
                    var found: [String] = []
                    for try await line in rows.decode(String.self) { found.append(line) }
                    return found
                }
                let alert = try #require(sent.first, "deliveries: \(planned)")
                #expect(alert.verified)
                #expect(alert.body["type"]?.stringValue == "target.disabled")
                #expect(alert.body["data"]?["target"]?.stringValue == Self.partner)
                #expect(alert.body["data"]?["by"]?.stringValue == "token night-shift")

                // Disabling a disabled target changes nothing, so records nothing.
                #expect(try await relay.post("/v1/targets/\(id)/disable", token: support).status == 200)
                #expect(try await Self.transitions(db).count == 1)

                let enabled = try await relay.post("/v1/targets/\(id)/enable", token: support)
                #expect(enabled.status == 200 && enabled.json?["state"] as? String == "healthy", "\(enabled.body)")

                // The command line names the login it ran as.
                let cli = try await CommandLineTests.run(["targets", "disable", Self.partner],
                                                         env: CommandLineTests.environment(db, env.merging(["USER": "ops-oncall"]) { _, new in new }))
                #expect(cli.status == 0, "\(cli.stdout) \(cli.stderr)")
                #expect(try await Self.transitions(db) == [
                    "target.disabled \(Self.partner) by token night-shift", "target.enabled \(Self.partner) by token night-shift",
                    "target.disabled \(Self.partner) by cli (ops-oncall)",
                ])
                let alerts = try await callbacks.waitForRequests(3, path: "/ok/alerts")
                #expect(alerts.compactMap { $0.body["data"]?["by"]?.stringValue }.sorted()
                    == ["cli (ops-oncall)", "token night-shift", "token night-shift"])
                #expect(try await relay.count("SELECT count(*) FROM delivery_targets WHERE disabled_by = 'cli (ops-oncall)'") == 1)

                // The alerts' bodies are valid against the OpenAPI document's callback schemas.
                let document = try await relay.request("/openapi.json").body
                let checked = try CallbackSchemaTests.check(document: document, bodies: alerts.map(\.body.jsonText))
                #expect(checked.failures.isEmpty, "\(checked.failures)")
            }
        }
    }

    /// Three dead deliveries for a bulk redrive.
    static func seedDead(_ database: DatabaseURL) async throws {
        try await TestDatabase.withClient(database) { client in
            try await client.query("""
                INSERT INTO items (entrupy_id, result, result_final, flag, fetched_at, raw) VALUES ('E1', 'authentic', true, 'none', now(), '{}')
                """, logger: TestDatabase.logger)
            try await client.query("INSERT INTO item_events (entrupy_id, kind, source, occurred_at) VALUES ('E1', 'result.final', 'webhook', now())",
                                   logger: TestDatabase.logger)
            try await client.query("""
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, state, idempotency_key)
                SELECT ev.id, 'E1', 'r', n, 'webhook', 'https://p.example/***', '{}'::jsonb, 'dead', 'dlv_b' || n
                FROM item_events ev, generate_series(1, 3) AS n
                """, logger: TestDatabase.logger)
        }
    }

    static func bulkRows(_ database: DatabaseURL) async throws -> [String] {
        try await TestDatabase.withClient(database) { client in
            let rows = try await client.query("""
                SELECT state || ' ' || matched || '/' || queued || ' by ' || requested_by || CASE WHEN error IS NULL THEN '' ELSE ' error' END
                FROM bulk_actions ORDER BY id
                """, logger: TestDatabase.logger)
            var found: [String] = []
            for try await line in rows.decode(String.self) { found.append(line) }
            return found
        }
    }

    /// What the database does to the second delivery's retry: fail, or take its time.
    static func onSecondDelivery(_ database: DatabaseURL, _ body: String) async throws {
        try await TestDatabase.withClient(database) { client in
            try await client.query(PostgresQuery(unsafeSQL: """
                CREATE OR REPLACE FUNCTION test_second_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.idempotency_key = 'dlv_b2' THEN \(body); END IF; RETURN NEW; END $$
                """), logger: TestDatabase.logger)
            try await client.query("""
                CREATE OR REPLACE TRIGGER test_second_delivery BEFORE UPDATE ON deliveries
                FOR EACH ROW EXECUTE FUNCTION test_second_delivery()
                """, logger: TestDatabase.logger)
        }
    }

    /// A redrive that fails part way leaves its record (`failed`, with how far it got); one in
    /// progress is recorded `running` before its work, seen from another connection; a row a
    /// stopped process left `running` is marked `interrupted` by the next.
    @Test func aBulkRedriveIsRecordedBeforeItsWork() async throws {
        try await TestDatabase.with { db async throws in
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                try await Self.seedDead(db)
                let support = try await APIAccess.token(db, role: .support, name: "redriver")

                try await Self.onSecondDelivery(db, "RAISE EXCEPTION 'injected failure'")
                let failed = try await relay.post("/v1/deliveries/retry", token: support, json: "{}")
                #expect(failed.status >= 500, "\(failed.body)")
                #expect(try await Self.bulkRows(db) == ["failed 3/1 by token redriver error"])

                try await TestDatabase.withClient(db) { client in
                    try await client.query("""
                        INSERT INTO bulk_actions (action, requested_by, filters, matched, queued, state, requested_at, progress_at)
                        VALUES ('retry_deliveries', 'a killed process', '{}', 9000, 4000, 'running', now() - interval '1 hour', now() - interval '1 hour')
                        """, logger: TestDatabase.logger)
                }
                try await Self.onSecondDelivery(db, "PERFORM pg_sleep(3)")
                let run = Task { try await relay.post("/v1/deliveries/retry", token: support, json: "{}") }
                let seen = try await eventually(timeout: .seconds(3)) {
                    try await Self.bulkRows(db).last == "running 2/0 by token redriver"
                }
                let rowsMidRun = try await Self.bulkRows(db)
                #expect(seen, "\(rowsMidRun)")
                let done = try await run.value
                #expect(done.status == 202 && done.json?["queued"] as? Int == 2, "\(done.body)")
                #expect(try await Self.bulkRows(db) == ["failed 3/1 by token redriver error", "interrupted 9000/4000 by a killed process error",
                                                         "done 2/2 by token redriver"])
            }
        }
    }
}
