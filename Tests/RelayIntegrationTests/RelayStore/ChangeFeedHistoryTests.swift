import Foundation
import PostgresNIO
import RelayModel
import Testing

/// Issue 42, finding 3: a change-feed cursor was refused only while its page was empty and its
/// transaction ahead of the database. After a dump was restored into a new cluster whose
/// transaction IDs had passed the cursor's, a reader went on from it and never saw the
/// transitions renumbered by `migrate` nor those written since. Cursors now carry the database's
/// history (the cluster's system identifier and timeline), and one from another history is 409
/// with what to do; an old-form cursor is checked by the transition it points at.
@Suite("Change feed cursors across a restore", .timeLimit(.minutes(4)))
struct ChangeFeedHistoryTests {
    /// Uses up `count` transaction IDs on `database`, one small transaction each.
    static func advance(_ database: DatabaseURL, by count: Int) async throws {
        try await TestDatabase.withClient(database) { client in
            try await client.withConnection { connection in
                try await connection.query("SET synchronous_commit = off", logger: TestDatabase.logger)
                for _ in 0..<count { try await connection.query("SELECT pg_current_xact_id()", logger: TestDatabase.logger) }
            }
        }
    }

    static func nextTransaction(_ database: DatabaseURL) async throws -> Int {
        try await TestDatabase.scalar(database, "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")
    }

    static func insertTransition(_ database: DatabaseURL, _ to: String) async throws {
        try await TestDatabase.execute(database, """
            INSERT INTO item_events (entrupy_id, kind, to_value, source) VALUES ('hist-0', 'result.changed', '\(to)', 'manual')
            """)
    }

    /// The whole feed from the start, once the transition to `to` is served (another test's open
    /// transaction on the shared cluster may hold it back a moment).
    static func readAll(_ relay: TestRelay, token: String, until to: String) async throws -> [[String: Any]] {
        var changes: [[String: Any]] = []
        _ = try await eventually(timeout: .seconds(30), every: .milliseconds(200)) {
            changes = try await relay.get("/v1/changes?limit=1000", token: token).json?["changes"] as? [[String: Any]] ?? []
            return changes.contains { $0["to"] as? String == to }
        }
        return changes
    }

    @Test func aCursorFromBeforeARestoreIntoANewClusterIsRefusedOnceTransactionIDsPassIt() async throws {
        let backup = try TestServerProcess.temporaryDirectory("feed-backup").appendingPathComponent("relay.dump").path
        let dir = try TestServerProcess.temporaryDirectory("pg-feed-restore")
        let script = TestServerProcess.root.appendingPathComponent("deploy/test-servers/pg_cluster.sh").path
        defer { _ = try? Process.run(URL(fileURLWithPath: "/bin/bash"), arguments: [script, "stop", dir.path]).waitUntilExit() }
        defer { try? FileManager.default.removeItem(atPath: (backup as NSString).deletingLastPathComponent) }
        // The original on a cluster of its own too: the cursor's transaction ID is then a few
        // thousand, which the new cluster passes in seconds. On the suite's shared cluster it is
        // whatever that cluster has used since it was made (701,000 on a long-lived one, which
        // took this test past its time limit one query at a time).
        let cluster = try await PrivateCluster.start("pg-feed-original")
        defer { cluster.remove() }
        let original = try cluster.database
        let made = try await CommandLineTests.run(["migrate"], env: CommandLineTests.environment(original))
        try #require(made.status == 0, "\(made.stderr)")
        do {
            try await APIAccess.seedItems(original, count: 1, prefix: "hist")
            let token = try await APIAccess.token(original, role: .consumer)
            // A cluster with some history: the cursor's transaction is far ahead of a new cluster's.
            try await Self.advance(original, by: 4_000)
            try await Self.insertTransition(original, "before-backup")
            let (cursor, old) = try await TestRelay.with(database: original) { relay async throws in
                let changes = try await Self.readAll(relay, token: token, until: "before-backup")
                let cursor = try #require(changes.last?["cursor"] as? String)
                let parts = cursor.split(separator: ".")
                // The same place as a cursor given out before histories: `<transaction>.<id>`.
                return (cursor, parts.suffix(2).joined(separator: "."))
            }
            let dump = try await RestoreTests.run("pg_dump", ["-Fc", "-f", backup, "-d", original.database], on: original)
            try #require(dump.status == 0, "\(dump.stderr)")

            // The runbook's restore into a new cluster: restore, migrate, start.
            let pgPort = try await freePort()
            let started = try await CommandLineTests.run([script, "start", dir.path, String(pgPort)],
                                                         env: CommandLineTests.environment(nil), executable: "/bin/bash")
            try #require(started.status == 0, "\(started.stderr)")
            let restored = try DatabaseURL(parsing: started.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            let restore = try await RestoreTests.run("pg_restore", ["--no-owner", "--no-privileges", "-d", restored.database, backup], on: restored)
            try #require(restore.status == 0, "\(restore.stderr)")
            let cursorTransaction = try #require(Int(old.split(separator: ".").first ?? ""))
            let reached = try await Self.nextTransaction(restored)
            try #require(reached < cursorTransaction, "the new cluster starts behind the cursor (\(reached) vs \(cursorTransaction))")
            let env = CommandLineTests.environment(restored)
            let migrated = try await CommandLineTests.run(["migrate"], env: env)
            #expect(migrated.status == 0 && migrated.stdout.contains("change feed:"), "\(migrated.stdout) \(migrated.stderr)")

            // A transition written while the new cluster's IDs are below the cursor's, then IDs past it, then migrate again.
            try await Self.insertTransition(restored, "after-restore")
            try await Self.advance(restored, by: cursorTransaction - reached + 50)
            #expect(try await Self.nextTransaction(restored) > cursorTransaction)
            #expect(try await CommandLineTests.run(["migrate"], env: env).status == 0)

            try await TestRelay.with(database: restored) { relay async throws in
                for given in [cursor, old] {
                    let answer = try await relay.get("/v1/changes?after=\(given)", token: token)
                    #expect(answer.status == 409, "\(given) was followed past the restore: \(answer.status) \(answer.body)")
                    #expect(answer.message?.contains("another history of the database") == true, "\(answer.body)")
                    #expect(answer.message?.contains("read again from the start") == true, "\(answer.body)")
                }
                // From the start, nothing is missing, and the new cursors are this cluster's.
                let changes = try await Self.readAll(relay, token: token, until: "after-restore")
                #expect(changes.compactMap { $0["to"] as? String }.suffix(2) == ["before-backup", "after-restore"])
                let fresh = try #require(changes.last?["cursor"] as? String)
                #expect(fresh.split(separator: ".").count == 4 && fresh.split(separator: ".").first != cursor.split(separator: ".").first,
                        "\(fresh) names the new cluster, not \(cursor)'s")
                #expect(try await relay.get("/v1/changes?after=\(fresh)", token: token).status == 200)
            }
            // The command says the same and exits 1.
            let follow = try await CommandLineTests.run(["changes", "follow", "--once", "--after", cursor], env: env)
            #expect(follow.status == 1 && follow.stderr.contains("read again from the start"), "\(follow.status) \(follow.stderr)")
        }
    }

    /// Forged cursors: text that is no cursor is 400 with the parameter named; one that parses but
    /// names another history, a transaction not reached, or a transition that is not there is 409.
    @Test func forgedCursorsAreRefusedWithAMessage() async throws {
        try await TestRelay.withFresh { relay async throws in
            try await APIAccess.seedItems(relay.database, count: 1, prefix: "hist")
            let token = try await APIAccess.token(relay.database, role: .consumer)
            try await Self.insertTransition(relay.database, "forged")
            let changes = try await Self.readAll(relay, token: token, until: "forged")
            let cursor = try #require(changes.last?["cursor"] as? String)
            let parts = cursor.split(separator: ".").map(String.init)
            try #require(parts.count == 4)
            for text in ["1.2.3", "1.2.3.4.5", "18446744073709551616.1.2.3", "1.4294967296.2.3", "a.b.c.d", String(repeating: "9", count: 2_000)] {
                let answer = try await relay.get("/v1/changes?after=\(text)", token: token)
                #expect(answer.status == 400 && answer.message?.contains("after") == true, "\(text.prefix(30)): \(answer.status) \(answer.body.prefix(200))")
            }
            let otherCluster = "\(UInt64(parts[0])! &+ 1).\(parts[1]).\(parts[2]).\(parts[3])"
            let otherTimeline = "\(parts[0]).\(UInt32(parts[1])! + 1).\(parts[2]).\(parts[3])"
            let ahead = "\(parts[0]).\(parts[1]).9999999999999999999.\(parts[3])"
            let elsewhere = "\(parts[0]).\(parts[1]).\(parts[2]).999999999999999999"
            let renamed = "\(parts[0]).\(parts[1]).\(UInt64(parts[2])! - 1).\(parts[3])"
            for text in [otherCluster, otherTimeline, ahead, elsewhere, renamed] {
                let answer = try await relay.get("/v1/changes?after=\(text)", token: token)
                #expect(answer.status == 409 && answer.message?.contains("read again from the start") == true, "\(text): \(answer.status) \(answer.body)")
            }
            #expect(try await relay.get("/v1/changes?after=\(cursor)", token: token).status == 200)
            #expect(try await relay.get("/v1/changes?after=\(parts[2]).\(parts[3])", token: token).status == 200, "an old-form cursor still works")
        }
    }
}
