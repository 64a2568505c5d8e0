import Foundation
import PostgresNIO
import RelayApp
import RelayModel
import RelayStore
import Testing

/// The query API cannot starve ingestion (issue 10, defect 7): it has its own connections,
/// and each of its statements a time limit.
@Suite("API isolation from ingestion", .timeLimit(.minutes(3)))
struct APIIsolationTests {
    /// Every API connection is stuck behind a lock on `items` while ten searches wait (more than
    /// the whole pool the relay once shared between readers and ingestion); webhooks
    /// are still stored at once, and the stuck searches end in 503 within the statement
    /// timeout instead of holding connections forever.
    @Test func webhooksAreStoredWhileEveryAPIConnectionIsStuck() async throws {
        try await TestDatabase.with { db async throws in
            let env = ["ENTRUPY_RELAY_API_DATABASE_POOL_SIZE": "2", "ENTRUPY_RELAY_API_STATEMENT_TIMEOUT_MS": "1000", "ENTRUPY_RELAY_API_TOKEN_CONCURRENCY": "100",
                       "ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS": "10000"]
            try await TestRelay.with(database: db, env: env) { relay async throws in
                let token = try await APIAccess.token(db, role: .support)
                try await TestDatabase.withClient(db) { client async throws in
                    try await client.withTransaction(logger: TestDatabase.logger) { tx in
                        try await tx.query("LOCK TABLE items IN ACCESS EXCLUSIVE MODE", logger: TestDatabase.logger)
                        let searches = (0..<10).map { _ in Task { try await relay.get("/v1/items?limit=5", token: token) } }
                        try await Task.sleep(for: .milliseconds(300))
                        let run = UUID().uuidString
                        // Stored, not refused: with the pool shared, the stuck searches held every
                        // connection and these got 503 after ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS.
                        let started = ContinuousClock.now
                        for n in 0..<10 {
                            #expect(try await relay.post(WebhookFixture.session(n, run: run)).status == 200)
                        }
                        // Each answered 200 above; with a shared pool each would have waited the 10 s store timeout
                        // for a 503. The bound only catches a stall (the whole suite on 2 cores took 20 s once).
                        #expect(ContinuousClock.now - started < .seconds(60), "webhooks waited \(ContinuousClock.now - started)")
                        var statuses: [Int] = []
                        for search in searches { statuses.append(try await search.value.status) }
                        #expect(statuses.allSatisfy { $0 == 503 }, "\(statuses)")
                    }
                }
                #expect(try await relay.count("SELECT count(*) FROM webhook_events") == 10)
                // With the lock gone the API answers again.
                #expect(try await relay.get("/v1/items?limit=5", token: token).status == 200)
            }
        }
    }

    /// A statement past `statement_timeout` is cancelled by the server and recognised as such.
    @Test func theAPIPoolCancelsLongStatements() async throws {
        try await TestDatabase.with { db async throws in
            let client = try DatabaseClientFactory.makeClient(db, poolSize: 1, statementTimeout: .milliseconds(200), logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await client.run() }
                defer { group.cancelAll() }
                let started = ContinuousClock.now
                do {
                    let rows = try await client.query("SELECT pg_sleep(5)", logger: TestDatabase.logger)
                    for try await _ in rows {}
                    Issue.record("pg_sleep(5) was not cancelled")
                } catch {
                    #expect(StoreFailure.isStatementTimeout(error), "\(StoreFailure.describe(error))")
                }
                // Ended before the sleep would have (connecting on a loaded machine took 4.2 s once).
                #expect(ContinuousClock.now - started < .seconds(5))
            }
        }
    }
}
