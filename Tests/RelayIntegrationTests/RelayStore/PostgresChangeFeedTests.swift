import AsyncHTTPClient
import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayStore
import Testing

/// The change feed never skips a transition, whatever order transactions commit in: the
/// classic trap of an outbox read by ID (a reader sees ID 11 committed, moves its cursor past
/// it, and ID 10 commits afterwards).
@Suite("Change feed", .timeLimit(.minutes(3)))
struct PostgresChangeFeedTests {
    static let logger = Logger(label: "change-feed-tests")

    /// Inserts one transition for `item` on `connection` (inside whatever transaction it has open); answers its ID.
    static func insert(_ item: String, _ to: String, on connection: PostgresConnection) async throws -> Int64 {
        let rows = try await connection.query("""
            INSERT INTO item_events (entrupy_id, kind, to_value, source) VALUES (\(item), 'result.changed', \(to), 'manual') RETURNING id
            """, logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        throw TestSetupError("no id returned")
    }

    static func ids(_ entries: [ChangeEntry]) -> [Int64] { entries.map(\.cursor.id) }

    /// What a task of the concurrent test did: the IDs it wrote, or those the follower read.
    enum Part: Sendable { case wrote([Int64]), read([Int64]) }

    /// A reader following the feed with its cursor.
    actor Reader {
        let feed: PostgresChangeFeed
        var cursor = ChangeCursor.start

        init(_ feed: PostgresChangeFeed) { self.feed = feed }

        /// The next page, as it is now.
        func read() async throws -> [ChangeEntry] {
            let page = try await feed.changes(after: cursor, limit: 100)
            if let last = page.last { cursor = last.cursor }
            return page
        }

        /// The next `count` transitions, in the order the feed gives them, however many pages
        /// that takes: a transaction open elsewhere in the cluster (another test's) holds the
        /// feed back for a while, and one whose ID falls between two of ours splits them.
        func next(_ count: Int) async throws -> [ChangeEntry] {
            var entries: [ChangeEntry] = []
            let deadline = ContinuousClock.now + .seconds(60)
            while entries.count < count, ContinuousClock.now < deadline {
                let page = try await read()
                entries += page
                if page.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
            }
            return entries
        }
    }

    @Test func transactionsCommittingOutOfOrderAreNeverSkipped() async throws {
        try await TestDatabase.with { database async throws in
            try await APIAccess.seedItems(database, count: 1, prefix: "feed")
            try await TestDatabase.withClient(database) { client in
                let reader = Reader(PostgresChangeFeed(client: client, logger: Self.logger))
                #expect(try await reader.read().isEmpty)

                // 1. A takes ID n first, B takes n + 1 and commits first.
                try await client.withConnection { a in
                    try await client.withConnection { b in
                        try await a.query("BEGIN", logger: Self.logger)
                        let first = try await Self.insert("feed-0", "a", on: a)
                        try await b.query("BEGIN", logger: Self.logger)
                        let second = try await Self.insert("feed-0", "b", on: b)
                        try await b.query("COMMIT", logger: Self.logger)
                        #expect(second == first + 1)
                        // The trap: reading by ID now shows n + 1 and not n.
                        var visible: [Int64] = []
                        for try await id in try await client.query("SELECT id FROM item_events ORDER BY id", logger: Self.logger).decode(Int64.self) {
                            visible.append(id)
                        }
                        #expect(visible == [second], "a reader by ID would move past \(first) before it commits")
                        #expect(try await reader.read().isEmpty, "the feed holds n + 1 back while n's transaction may still commit")
                        try await a.query("COMMIT", logger: Self.logger)
                        #expect(Self.ids(try await reader.next(2)) == [first, second])
                    }
                }

                // 2. B's transaction is older (it took its transaction ID first) but its row's ID is later.
                try await client.withConnection { a in
                    try await client.withConnection { b in
                        try await b.query("BEGIN", logger: Self.logger)
                        _ = try await b.query("SELECT pg_current_xact_id()", logger: Self.logger)
                        try await a.query("BEGIN", logger: Self.logger)
                        let first = try await Self.insert("feed-0", "c", on: a)
                        let second = try await Self.insert("feed-0", "d", on: b)
                        try await b.query("COMMIT", logger: Self.logger)
                        #expect(Self.ids(try await reader.next(1)) == [second], "the older transaction's row comes first")
                        try await a.query("COMMIT", logger: Self.logger)
                        #expect(Self.ids(try await reader.next(1)) == [first], "and the other one after it, not skipped")
                    }
                }
                #expect(try await reader.read().isEmpty)
            }
        }
    }

    @Test func aFollowerUnderConcurrentWritersSeesEveryTransitionOnce() async throws {
        try await TestDatabase.with { database async throws in
            try await APIAccess.seedItems(database, count: 4, prefix: "busy")
            try await TestDatabase.withClient(database) { client in
                let writers = 6, perWriter = 15
                let (written, seen) = try await withThrowingTaskGroup(of: Part.self) { group in
                    for writer in 0..<writers {
                        group.addTask {
                            var ids: [Int64] = []
                            for n in 0..<perWriter {
                                let id = try await client.withConnection { connection in
                                    // A transaction ID first, the row's ID a random moment later and the commit
                                    // another: transaction order, ID order and commit order all differ.
                                    try await connection.query("BEGIN", logger: Self.logger)
                                    _ = try await connection.query("SELECT pg_current_xact_id()", logger: Self.logger)
                                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...15)))
                                    let id = try await Self.insert("busy-\(writer % 4)", "w\(writer)-\(n)", on: connection)
                                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...15)))
                                    try await connection.query("COMMIT", logger: Self.logger)
                                    return id
                                }
                                ids.append(id)
                            }
                            return .wrote(ids)
                        }
                    }
                    // The follower, reading all the while, a few at a time.
                    group.addTask {
                        let feed = PostgresChangeFeed(client: client, logger: Self.logger)
                        var cursor = ChangeCursor.start, seen: [Int64] = []
                        let deadline = ContinuousClock.now + .seconds(60)
                        while seen.count < writers * perWriter, ContinuousClock.now < deadline {
                            let page = try await feed.changes(after: cursor, limit: 7)
                            for entry in page {
                                #expect(cursor < entry.cursor, "cursors only go forward")
                                cursor = entry.cursor
                                seen.append(entry.cursor.id)
                            }
                            if page.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                        }
                        return .read(seen)
                    }
                    var written: [Int64] = [], seen: [Int64] = []
                    for try await part in group {
                        switch part {
                        case .wrote(let ids): written += ids
                        case .read(let ids): seen = ids
                        }
                    }
                    return (written, seen)
                }
                #expect(written.count == writers * perWriter)
                #expect(seen.count == written.count, "every transition read exactly once")
                #expect(Set(seen) == Set(written))
            }
        }
    }

    @Test func theAPIWaitsForTheNextChangeAndTheCommandFollows() async throws {
        try await TestRelay.withFresh { relay async throws in
            try await APIAccess.seedItems(relay.database, count: 1, prefix: "api")
            let token = try await APIAccess.token(relay.database, role: .consumer)
            let start = try await relay.get("/v1/changes", token: token)
            #expect(start.status == 200 && (start.json?["changes"] as? [Any])?.isEmpty == true)
            let end = try #require(start.json?["next_cursor"] as? String)
            #expect(end == "0.0")

            // A reader waiting up to 20 s is answered once a transition commits.
            async let waited = relay.get("/v1/changes?after=\(end)&wait=20", token: token)
            try await Task.sleep(for: .milliseconds(600))
            let started = ContinuousClock.now
            try await TestDatabase.execute(relay.database, """
                INSERT INTO item_events (entrupy_id, kind, to_value, source) VALUES ('api-0', 'result.final', 'authentic', 'manual')
                """)
            let answer = try await waited
            #expect(ContinuousClock.now - started < .seconds(10), "answered when the change came, not at the end of the wait")
            let changes = try #require(answer.json?["changes"] as? [[String: Any]])
            #expect(changes.count == 1)
            #expect(changes.first?["entrupy_id"] as? String == "api-0")
            #expect(changes.first?["customer_item_id"] as? String == "sku-api-0")
            #expect(changes.first?["kind"] as? String == "result.final")
            #expect(answer.json?["next_cursor"] as? String == changes.first?["cursor"] as? String)

            let bad = try await relay.get("/v1/changes?after=11", token: token)
            #expect(bad.status == 400)

            let follow = try await CommandLineTests.run(["changes", "follow", "--once"], env: CommandLineTests.environment(relay.database))
            #expect(follow.status == 0, "\(follow.stderr)")
            let lines = follow.stdout.split(separator: "\n").compactMap { JSONValue(jsonText: String($0)) }
            #expect(lines.map { $0["kind"]?.stringValue } == ["result.final"])
            #expect(follow.stderr.contains("next_cursor: \(lines.first?["cursor"]?.stringValue ?? "?")"))
            let resumed = try await CommandLineTests.run(["changes", "follow", "--once", "--after", lines.first?["cursor"]?.stringValue ?? ""],
                                                        env: CommandLineTests.environment(relay.database))
            #expect(resumed.status == 0 && resumed.stdout.isEmpty, "nothing after the last cursor: \(resumed.stdout)")
            let refused = try await CommandLineTests.run(["changes", "follow", "--after", "x.y"], env: CommandLineTests.environment(relay.database))
            #expect(refused.status != 0 && refused.stderr.contains("--after"))
        }
    }

    /// A reader waiting 30 s for the next change does not hold `serve`'s SIGTERM: the wait ends
    /// at once, answered with what there is, and the process exits 0.
    @Test func aWaitingReaderDoesNotHoldAShutdown() async throws {
        try await TestDatabase.with { database async throws in
            let token = try await APIAccess.token(database, role: .consumer)
            let port = try await freePort()
            let env = CommandLineTests.environment(database, ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret])
            let serve = try RelayProcess(binary: nil, ["serve", "--no-worker", "--port", String(port)], env: env)
            #expect(try await eventually(timeout: .seconds(20)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
            let waiting = Task {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/changes?wait=30")
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(40))
                return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
            }
            try await Task.sleep(for: .seconds(1))
            let stopping = ContinuousClock.now
            let status = await serve.stop()
            let took = ContinuousClock.now - stopping
            #expect(status == 0, "\(serve.output.suffix(2_000))")
            #expect(took < .seconds(10), "SIGTERM took \(took) with a reader waiting")
            let (code, body) = try await waiting.value
            #expect(code == 200 && JSONValue(jsonText: body)?["changes"]?.arrayValue?.isEmpty == true, "\(code) \(body)")
        }
    }

    /// After a restore from another cluster's dump, transitions carry transaction IDs this
    /// cluster has not reached: `migrate` (a step of the restore) renumbers them so they are
    /// served, and a cursor given out before the restore is refused (409), not followed past
    /// everything written since.
    @Test func aRestoreIsNeitherHiddenNorSkipped() async throws {
        try await TestRelay.withFresh { relay async throws in
            try await APIAccess.seedItems(relay.database, count: 1, prefix: "restored")
            let token = try await APIAccess.token(relay.database, role: .consumer)
            // As a dump of a busier cluster brings them: a transaction a million ahead of this one.
            try await TestDatabase.execute(relay.database, """
                INSERT INTO item_events (entrupy_id, kind, to_value, source, xact)
                VALUES ('restored-0', 'result.final', 'authentic', 'manual', (pg_current_xact_id()::text::bigint + 1000000)::text::xid8)
                """)
            let future = try await TestDatabase.scalar(relay.database, "SELECT xact::text::bigint FROM item_events")
            let hidden = try await relay.get("/v1/changes", token: token)
            #expect((hidden.json?["changes"] as? [Any])?.isEmpty == true, "unserved: its transaction is ahead of every running one")
            let stale = try await relay.get("/v1/changes?after=\(future).1", token: token)
            #expect(stale.status == 409, "\(stale.body)")
            #expect(stale.message?.contains("read again from the start") == true)

            let migrate = try await CommandLineTests.run(["migrate"], env: CommandLineTests.environment(relay.database))
            #expect(migrate.status == 0 && migrate.stdout.contains("change feed: 1 transition(s)"), "\(migrate.stdout) \(migrate.stderr)")
            let served = try await relay.get("/v1/changes", token: token)
            let changes = try #require(served.json?["changes"] as? [[String: Any]])
            #expect(changes.map { $0["entrupy_id"] as? String } == ["restored-0"])
            // `<system>.<timeline>.<transaction>.<id>`: served first, as transaction 0.
            #expect((changes.first?["cursor"] as? String)?.split(separator: ".").dropFirst(2).first == "0", "served first, as transaction 0")
            let again = try await CommandLineTests.run(["migrate"], env: CommandLineTests.environment(relay.database))
            #expect(again.status == 0 && !again.stdout.contains("change feed"), "nothing left to renumber: \(again.stdout)")
        }
    }
}
