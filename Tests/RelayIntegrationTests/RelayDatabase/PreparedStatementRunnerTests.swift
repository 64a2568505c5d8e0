import Foundation
import PostgresNIO
import RelayApp
import RelayDatabase
import Testing

/// Counts the rows of a table that the test creates only after the first run.
struct CountLaterRows: PostgresPreparedStatement {
    typealias Row = Int64
    static let name = "test_count_later_rows"
    static let sql = "SELECT count(*)::int8 FROM created_later"
    func makeBindings() -> PostgresBindings { PostgresBindings() }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

@Suite("Prepared statements", .timeLimit(.minutes(2)))
struct PreparedStatementRunnerTests {
    /// A relay started before `migrate`: the statement's first preparation fails (its table
    /// is missing). postgres-nio would refuse it on that connection for good; the runner
    /// closes the connection, so once the table exists the same pool (one connection) runs it.
    @Test func aFailedPreparationDoesNotPoisonThePool() async throws {
        try await TestDatabase.with { db async throws in
            let client = try DatabaseClientFactory.makeClient(db, poolSize: 1, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                await #expect(throws: (any Error).self) {
                    try await PreparedStatementRunner.rows(CountLaterRows(), on: client, logger: TestDatabase.logger)
                }
                try await TestDatabase.withClient(db) { other in
                    _ = try await other.query("CREATE TABLE created_later (id int)").collect()
                }
                #expect(try await PreparedStatementRunner.rows(CountLaterRows(), on: client, logger: TestDatabase.logger) == [0])
            }
        }
    }
}
