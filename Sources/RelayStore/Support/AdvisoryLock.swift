import Logging
import PostgresNIO

/// A session advisory lock that one replica at a time holds while it runs something (the sync
/// pass, the pruner). It is held by one pooled connection for the body's run and released
/// when the body ends, or when the connection does (a killed replica frees it).
struct AdvisoryLock: Sendable {
    let key: Int64
    let client: PostgresClient
    let logger: Logger

    /// Runs `body` while holding the lock; nil without running it when another session holds it.
    func whileHeld<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T? {
        try await client.withConnection { connection -> T? in
            let rows = try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: logger)
            var taken = false
            for try await value in rows.decode(Bool.self) { taken = value }
            guard taken else { return nil }
            // Unlocking must happen even when the body was cancelled (shutdown): a pooled
            // connection must not keep the lock. An unstructured task is not cancelled with this one.
            let unlock: @Sendable () async -> Void = { [key, logger] in
                await Task {
                    _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                }.value
            }
            do {
                let result = try await body()
                await unlock()
                return result
            } catch {
                await unlock()
                throw error
            }
        }
    }
}
