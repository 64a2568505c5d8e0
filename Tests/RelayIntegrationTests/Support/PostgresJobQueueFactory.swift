import PostgresNIO
import RelayModel
import RelayQueue

enum PostgresJobQueueFactory {
    static func make(_ client: PostgresClient) -> PostgresJobQueue {
        PostgresJobQueue(client: client, logger: TestDatabase.logger)
    }
}

/// Runs `body` with a queue on a fresh test database (and the database's URL, for queries
/// of its own), the client running around it.
func withQueue(_ body: @escaping @Sendable (PostgresJobQueue, DatabaseURL) async throws -> Void) async throws {
    try await TestDatabase.withFresh { db, client async throws in
        try await body(PostgresJobQueueFactory.make(client), db)
    }
}
