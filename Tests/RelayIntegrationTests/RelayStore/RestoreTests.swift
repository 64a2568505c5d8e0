import Foundation
import RelayModel
import Testing

/// A database restored from a backup taken before a change, then synced: the partner is sent
/// the change again (the relay cannot know it was sent), under the same webhook-id, so it can
/// drop the repeat. This is the runbook's restore (pg_dump, pg_restore, start, sync) for real.
@Suite("Restore without re-notifying", .timeLimit(.minutes(3)))
struct RestoreTests {
    /// A PostgreSQL client tool of the server's version (pg_dump, pg_restore), where
    /// deploy/lib/postgres.sh finds the server.
    static func tool(_ name: String) async throws -> String {
        let script = TestServerProcess.root.appendingPathComponent("deploy/test-servers/pg_cluster.sh").path
        let found = try await CommandLineTests.run([script, "bindir", "-"], env: ProcessInfo.processInfo.environment, executable: "/bin/bash")
        let folder = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard found.status == 0, !folder.isEmpty else { throw TestSetupError("no PostgreSQL binaries: run the suite with ./deploy/local.sh test") }
        return folder + "/" + name
    }

    static func run(_ tool: String, _ arguments: [String], on database: DatabaseURL) async throws -> CommandLineTests.Run {
        let connection = ["-h", database.host, "-p", String(database.port), "-U", database.username]
        var env = ProcessInfo.processInfo.environment
        env["PGPASSWORD"] = database.password ?? ""
        return try await CommandLineTests.run(connection + arguments, env: env, executable: try await Self.tool(tool))
    }

    @Test func aTransitionDerivedAgainAfterARestoreKeepsItsWebhookID() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: """
                rules:
                  - name: partner-callback
                    when: {transition: [result.final]}
                    notify:
                      - webhook: {url: "\(callbacks.url("/ok"))", secret: "${CALLBACK_SECRET}"}
                """, extra: ReconcileStack.fastEnv)
            let backup = try TestServerProcess.temporaryDirectory("backup").appendingPathComponent("relay.dump").path
            try await TestDatabase.with { original async throws in
                try await TestDatabase.with(migrated: false) { restored async throws in
                    let port = try await freePort()
                    try await TestSimulator.with(webhookURL: "http://127.0.0.1:\(port)/webhooks/entrupy") { sim async throws in
                        try await TestRelay.with(database: original, env: env, simulator: sim, port: port) { relay async throws in
                            let id = try await sim.createItem("sku-restore")
                            #expect(try await eventually {
                                try await relay.count("SELECT count(*) FROM items WHERE entrupy_id = '\(id)' AND result = 'needs_review'") == 1
                            })
                            // The backup, taken before the change, while the relay runs.
                            let dump = try await Self.run("pg_dump", ["-Fc", "-f", backup, "-d", original.database], on: original)
                            #expect(dump.status == 0, "\(dump.stderr)")
                            // The change: the final result reaches the partner once.
                            try await sim.setResult(id, "authentic", final: true)
                            #expect(try await eventually { try callbacks.requests().count == 1 })
                        }
                        // The database is lost; the backup is restored into a new one.
                        let restore = try await Self.run("pg_restore", ["--no-owner", "-d", restored.database, backup], on: restored)
                        #expect(restore.status == 0, "\(restore.stderr)")
                        // The relay on the restored database, whose sync finds the final result again.
                        try await TestRelay.with(database: restored, env: env.merging(["ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "1"]) { _, new in new },
                                                 simulator: sim, port: port) { relay async throws in
                            #expect(try await eventually(timeout: .seconds(30)) { try callbacks.requests().count == 2 })
                            #expect(try await relay.count("SELECT count(*) FROM item_events WHERE kind = 'result.final' AND source = 'sync'") == 1)
                        }
                        let requests = try callbacks.requests()
                        #expect(requests.count == 2)
                        #expect(requests.allSatisfy { $0.verified })
                        #expect(requests.first?.webhookID.hasPrefix("dlv_") == true)
                        #expect(requests.first?.webhookID == requests.last?.webhookID, "the same webhook-id: the partner can drop the repeat")
                    }
                }
            }
        }
    }
}
