import PostgresNIO
import RelayApp
import RelayModel
import Testing

/// The worker's bookkeeping pool (claims, lease renewals, outcomes) commits without waiting
/// for the WAL flush; every other pool keeps PostgreSQL's synchronous commit, so what a
/// webhook's 2xx promises does not depend on the worker's shortcut.
@Suite("Database pools against real PostgreSQL", .timeLimit(.minutes(1)))
struct BookkeepingPoolTests {
    @Test func theFactoryTurnsSynchronousCommitOffOnlyWhenAsked() async throws {
        try await TestDatabase.with { db async throws in
            let bookkeeping = try DatabaseClientFactory.makeClient(db, poolSize: 1, synchronousCommit: false, logger: TestDatabase.logger)
            let data = try DatabaseClientFactory.makeClient(db, poolSize: 1, logger: TestDatabase.logger)
            let (bookkeepingSetting, dataSetting) = try await withThrowingTaskGroup(of: Void.self) { group async throws -> (String?, String?) in
                group.addTask { await bookkeeping.run() }
                group.addTask { await data.run() }
                defer { group.cancelAll() }
                return (try await Self.synchronousCommit(bookkeeping), try await Self.synchronousCommit(data))
            }
            #expect(bookkeepingSetting == "off")
            #expect(dataSetting == "on")
        }
    }

    static func synchronousCommit(_ client: PostgresClient) async throws -> String? {
        let rows = try await client.query("SHOW synchronous_commit", logger: TestDatabase.logger)
        for try await value in rows.decode(String.self) { return value }
        return nil
    }
}
