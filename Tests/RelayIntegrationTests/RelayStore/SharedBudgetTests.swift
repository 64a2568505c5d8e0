import Foundation
import RelayModel
import RelayRuntime
import RelayStore
import Synchronization
import Testing

/// One Entrupy API budget for every replica, kept in PostgreSQL.
@Suite("The shared API budget", .timeLimit(.minutes(3)))
struct SharedBudgetTests {
    @Test func twoReplicasDrawFromOneBucketAndObeyOnePause() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let replicas = (0..<2).map { _ in PostgresAPIBudget(client: client, ratePerSecond: 10, logger: TestDatabase.logger) }
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<25 { group.addTask { try await replicas[n % 2].acquire(.webhook) } }
                try await group.waitForAll()
            }
            // 25 requests at 10 in any second take more than two seconds from one window; two would take half.
            #expect(ContinuousClock.now - start >= .milliseconds(2000))
            // No second, however cut, held more than 10 (the window is kept in the row).
            #expect(try await TestDatabase.scalar(db, """
                SELECT coalesce(max(n), 0)::int FROM (SELECT count(*) OVER (ORDER BY t RANGE BETWEEN interval '1 second' PRECEDING AND CURRENT ROW) AS n
                FROM api_budget, unnest(recent) AS t) AS w
                """) <= 10)

            // A 429 seen by one replica stops the other for its Retry-After.
            let paused = ContinuousClock.now
            await replicas[0].pauseCallers(for: .seconds(3))
            #expect((await replicas[1].remainingPause() ?? .zero) > .seconds(1))
            try await replicas[1].acquire(.webhook)
            #expect(ContinuousClock.now - paused >= .milliseconds(2900))
        }
    }

    @Test func whenTokensRunShortWebhooksGoFirst() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            // Half of this second's 4 are taken, and the sends stay in the window for an hour.
            let budget = PostgresAPIBudget(client: client, ratePerSecond: 4, logger: TestDatabase.logger)
            try await client.query("""
                UPDATE api_budget SET recent = ARRAY[now() + interval '1 hour', now() + interval '1 hour']
                """, logger: TestDatabase.logger)
            // Background work must leave half of each second free: it waits.
            let backgroundSent = Mutex(false)
            let background = Task {
                try await budget.acquire(.background)
                backgroundSent.withLock { $0 = true }
            }
            try await Task.sleep(for: .milliseconds(400))
            #expect(!backgroundSent.withLock { $0 })
            #expect(try await TestDatabase.scalar(db, "SELECT cardinality(recent) FROM api_budget") == 2)
            // A webhook reconcile takes what is left (however slow a loaded machine makes it), and background still waits.
            try await budget.acquire(.webhook)
            try await budget.acquire(.webhook)
            #expect(!backgroundSent.withLock { $0 })
            background.cancel()
            await #expect(throws: CancellationError.self) { try await background.value }
        }
    }

    @Test func threeReplicasTogetherStayUnderTheOrganisationLimit() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_ENTRUPY_API_RATE": "4"], simulatorRate: 5, worker: false) { stack async throws in
            let sim = stack.simulator
            // Each replica alone is allowed 4 a second; a per-process budget would send 12 and draw 429s.
            let env = WorkerProcessTests.workerEnv(sim, ["ENTRUPY_RELAY_ENTRUPY_API_RATE": "4"])
            let workers = try (0..<3).map { _ in try RelayProcess(["worker"], database: stack.database, env: env) }
            var ids: [String] = []
            for n in 0..<36 { ids.append(try await sim.createItem("sku-budget-\(n)", result: "authentic", final: true)) }
            #expect(try await eventually(timeout: .seconds(60), every: .milliseconds(250)) {
                try await stack.count("SELECT count(*) FROM items WHERE result = 'authentic'") == 36
            })
            let stats = try await sim.stats()
            #expect(stats["rate_limited"]?.int64Value == 0, "\(stats)")
            // Every replica took part.
            #expect(try await stack.count("SELECT count(DISTINCT leased_by) FROM jobs WHERE kind = 'reconcile_webhook'") == 3)
            for worker in workers { #expect(await worker.stop() == 0) }
        }
    }
}
