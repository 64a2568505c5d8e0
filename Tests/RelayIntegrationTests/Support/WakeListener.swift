import PostgresNIO
import RelayModel
import RelayQueue
import RelayRuntime

/// Listens on the queue's NOTIFY channel from a connection of its own while `action` runs,
/// then waits for the first notification (at most `limit`, so a missing wake fails the test
/// instead of holding it) and returns what `whenWoken` reads at that moment.
enum WakeListener {
    static func firstWake<T: Sendable>(
        _ db: DatabaseURL, limit: Duration = .seconds(15),
        during action: @escaping @Sendable () async throws -> Void,
        then whenWoken: @escaping @Sendable () async throws -> T
    ) async throws -> T? {
        try await withDeadline(limit) {
            try await TestDatabase.withClient(db) { client in
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresJobQueue.channel) { notifications -> T? in
                        try await action()
                        for try await _ in notifications { return try await whenWoken() }
                        return nil
                    }
                }
            }
        }
    }
}
