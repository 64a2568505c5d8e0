import Foundation
import Logging
import PostgresNIO
import RelayApp
import RelayModel
import Testing

/// Issue 42, finding 5: the change feed serves a transition only once every older transaction
/// in the cluster has ended, so a support login that runs `BEGIN; SELECT pg_current_xact_id();`
/// and walks away served every follower nothing, and nothing said so. Support logins now end an
/// idle transaction (and a long statement) by themselves, and the feed's lag is a metric and a
/// line of `/readyz` on the operations port.
@Suite("Change feed held back", .timeLimit(.minutes(3)))
struct ChangeFeedHoldTests {
    static let logger = Logger(label: "feed-hold-tests")

    /// A login role that is a member of relay_support (as the README tells operators to make one),
    /// made for `body` and dropped after it.
    static func withSupportLogin<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let staff = "staff_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(10)
        let admin = try TestDatabase.adminURL()
        try await TestDatabase.execute(admin, "CREATE ROLE \(staff) LOGIN PASSWORD 'staff-pass' IN ROLE relay_support")
        do {
            let result = try await body(String(staff))
            try await TestDatabase.execute(admin, "DROP ROLE \(staff)")
            return result
        } catch {
            try? await TestDatabase.execute(admin, "DROP ROLE \(staff)")
            throw error
        }
    }

    /// A session of the support login (closed by the caller).
    static func connect(_ url: DatabaseURL, as user: String) async throws -> PostgresConnection {
        let configuration = PostgresConnection.Configuration(host: url.host, port: url.port, username: user, password: "staff-pass",
                                                             database: url.database, tls: .disable)
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    }

    static func text(_ connection: PostgresConnection, _ sql: String) async throws -> String {
        do {
            for try await value in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(String.self) { return value }
        } catch {
            throw TestSetupError("\(sql): \(String(reflecting: error))")
        }
        throw TestSetupError("no row for \(sql)")
    }

    @Test func aSupportLoginsIdleTransactionIsEnded() async throws {
        // A first database makes relay_support; the login is a member of it when the next one is migrated.
        try await TestDatabase.with { _ async throws in
            try await Self.withSupportLogin { staff async throws in
                try await TestDatabase.with { db async throws in
                    let limits = """
                        SELECT count(*) FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole, unnest(s.setconfig) c
                        WHERE r.rolname = '\(staff)' AND s.setdatabase = 0
                          AND c IN ('idle_in_transaction_session_timeout=1min', 'statement_timeout=2min')
                        """
                    #expect(try await TestDatabase.scalar(db, limits) == 2, "migrate gave the support login both limits")
                    #expect(try await TestDatabase.scalar(db, limits.replacingOccurrences(of: "'\(staff)'", with: "'relay_support'")) == 2)
                    let session = try await Self.connect(db, as: staff)
                    #expect(try await Self.text(session, "SELECT current_setting('idle_in_transaction_session_timeout')::text") == "1min")
                    #expect(try await Self.text(session, "SELECT current_setting('statement_timeout')::text") == "2min")
                    try await session.close()

                    // The limit at work, shortened for the test, as a person at psql meets it: the open
                    // transaction is ended (and with it the session), so the feed goes on.
                    try await TestDatabase.execute(try TestDatabase.adminURL(), "ALTER ROLE \(staff) SET idle_in_transaction_session_timeout = '1s'")
                    let script = try TestServerProcess.temporaryDirectory("idle-support").appendingPathComponent("idle.sql")
                    defer { try? FileManager.default.removeItem(at: script.deletingLastPathComponent()) }
                    try "BEGIN;\nSELECT pg_current_xact_id();\n\\! sleep 3\nSELECT 'still open';\n".write(to: script, atomically: true, encoding: .utf8)
                    var env = ProcessInfo.processInfo.environment
                    env["PGPASSWORD"] = "staff-pass"
                    let psql = try await CommandLineTests.run(
                        ["-h", db.host, "-p", String(db.port), "-U", staff, "-d", db.database, "-Atq", "-v", "ON_ERROR_STOP=1", "-f", script.path],
                        env: env, executable: try await RestoreTests.tool("psql"))
                    #expect(psql.status != 0 && (psql.stderr.contains("idle-in-transaction timeout") || psql.stderr.contains("server closed the connection")),
                            "\(psql.status) \(psql.stdout) \(psql.stderr)")
                    #expect(!psql.stdout.contains("still open"))
                    let xid = psql.stdout.split(separator: "\n").first { !$0.isEmpty && $0.allSatisfy(\.isNumber) }.map(String.init) ?? "0"
                    #expect(try await TestDatabase.scalar(db, "SELECT coalesce(pg_xact_status('\(xid)'::xid8) = 'aborted', false)::int") == 1,
                            "transaction \(xid) was ended: \(psql.stdout)")
                }
            }
        }
    }

    @Test func theLagShowsInTheMetricAndReadinessWithoutMakingItUnready() async throws {
        try await TestDatabase.with { db async throws in
            let (port, operations) = (try await freePort(), try await freePort())
            let env = CommandLineTests.environment(db, ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
                                                        "ENTRUPY_RELAY_METRICS_PORT": String(operations)])
            let serve = try RelayProcess(binary: nil, ["serve", "--no-worker", "--port", String(port)], env: env)
            let probe = HTTPProbe(port: operations)
            #expect(try await eventually(timeout: .seconds(20)) { (try? await probe.status("/readyz")) == 200 }, "\(serve.output.suffix(2_000))")

            try await TestDatabase.withClient(db) { client in
                try await client.withConnection { holder in
                    try await holder.query("BEGIN", logger: Self.logger)
                    _ = try await holder.query("SELECT pg_current_xact_id()", logger: Self.logger)
                    var readiness = "", lag = 0.0
                    let seen = try await eventually(timeout: .seconds(30), every: .milliseconds(500)) {
                        readiness = JSONValue(jsonText: try await probe.body("/readyz"))?["checks"]?["change_feed"]?.stringValue ?? ""
                        let metrics = try await probe.body("/metrics")
                        let line = metrics.split(separator: "\n").first { $0.hasPrefix("relay_change_feed_lag_seconds ") }
                        lag = line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
                        return readiness.contains("held back") && lag >= 3
                    }
                    #expect(seen, "readyz: \(readiness); relay_change_feed_lag_seconds \(lag)")
                    #expect(try await probe.status("/readyz") == 200, "lag is reported, never unready")
                    try await holder.query("COMMIT", logger: Self.logger)
                }
            }
            #expect(await serve.stop() == 0, "\(serve.output.suffix(2_000))")
        }
    }
}
