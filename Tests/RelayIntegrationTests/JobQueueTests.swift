import Foundation
import PostgresNIO
import RelayCore
import RelayStore
import Testing

@Suite("The PostgreSQL job queue", .timeLimit(.minutes(3)))
struct JobQueueTests {
    func withQueue(_ body: @escaping @Sendable (PostgresJobQueue, DatabaseURL) async throws -> Void) async throws {
        try await TestDatabase.with { db async throws in
            try await TestDatabase.withClient(db) { client async throws in
                try await body(PostgresJobQueueFactory.make(client), db)
            }
        }
    }

    @Test func concurrentClaimersNeverShareAJob() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue((0..<200).map { NewJob(kind: "noop", args: .object(["n": .number(Double($0))])) })
            let claimed = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        var mine: [Int64] = []
                        while true {
                            let jobs = try await queue.claim(worker: "w\(worker)", limit: 7, lease: .seconds(30), kinds: ["noop"])
                            if jobs.isEmpty { return mine }
                            mine += jobs.map(\.id)
                        }
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            #expect(claimed.count == 200)
            #expect(Set(claimed).count == 200)
        }
    }

    @Test func uniqueKeysHoldOnlyWhileUnfinished() async throws {
        try await withQueue { queue, _ in
            let first = try await queue.enqueue([NewJob(kind: "k", uniqueKey: "item:1")])
            #expect(first.count == 1)
            #expect(try await queue.enqueue([NewJob(kind: "k", uniqueKey: "item:1")]).isEmpty)
            let job = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["k"]).first)
            #expect(try await queue.enqueue([NewJob(kind: "k", uniqueKey: "item:1")]).isEmpty)
            #expect(try await queue.complete(id: job.id, worker: "w"))
            #expect(try await queue.enqueue([NewJob(kind: "k", uniqueKey: "item:1")]).count == 1)
        }
    }

    @Test func onlyTheLeaseHolderFinishesAJob() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue([NewJob(kind: "k")])
            let job = try #require(try await queue.claim(worker: "a", limit: 1, lease: .seconds(30), kinds: ["k"]).first)
            #expect(job.attempt == 1)
            #expect(try await queue.complete(id: job.id, worker: "b") == false)
            #expect(try await queue.extendLease(id: job.id, worker: "b", lease: .seconds(30)) == false)
            #expect(try await queue.extendLease(id: job.id, worker: "a", lease: .seconds(30)))
            #expect(try await queue.complete(id: job.id, worker: "a"))
            #expect(try await queue.complete(id: job.id, worker: "a") == false)
        }
    }

    @Test func failuresRetryThenDieAndSnoozesSpendNoAttempt() async throws {
        try await withQueue { queue, db in
            try await queue.enqueue([NewJob(kind: "k", maxAttempts: 2)])
            var job = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["k"]).first)
            #expect(try await queue.snooze(id: job.id, worker: "w", delay: .zero))
            job = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["k"]).first)
            #expect(job.attempt == 1)
            #expect(try await queue.fail(id: job.id, worker: "w", error: "boom 1", delay: .seconds(3600)) == .retryable)
            #expect(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["k"]).isEmpty)
            #expect(try await queue.retry(id: job.id) == .scheduled)
            job = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["k"]).first)
            #expect(job.attempt == 2)
            #expect(try await queue.fail(id: job.id, worker: "w", error: "boom 2", delay: .zero) == .dead)
            let record = try #require(try await queue.list(state: .dead, limit: 10).first)
            #expect(record.errorCount == 2 && record.lastError == "boom 2")
            #expect(try await queue.retry(id: job.id) == .scheduled)
            #expect(try await TestDatabase.scalar(db, "SELECT max_attempts FROM jobs") == 3)
            #expect(try await queue.retry(id: 999_999) == .notFound)
            let again = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["k"]).first)
            try await queue.complete(id: again.id, worker: "w")
            #expect(try await queue.retry(id: job.id) == .notRetryable(state: "completed"))
        }
    }

    @Test func expiredLeasesAreRescuedAndOldJobsPruned() async throws {
        try await withQueue { queue, db in
            try await queue.enqueue([NewJob(kind: "k"), NewJob(kind: "k", maxAttempts: 1)])
            let jobs = try await queue.claim(worker: "dead-worker", limit: 2, lease: .milliseconds(200), kinds: ["k"])
            #expect(jobs.count == 2)
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await queue.rescueExpiredLeases() == 2)
            // The one with attempts left is claimable again; the other is dead.
            let again = try await queue.claim(worker: "live-worker", limit: 5, lease: .seconds(30), kinds: ["k"])
            #expect(again.count == 1)
            #expect(again.first?.attempt == 2)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE errors::text LIKE '%lease expired%'") == 2)
            try await queue.complete(id: again[0].id, worker: "live-worker")
            #expect(try await queue.prune(completedOlderThan: .seconds(3600), deadOlderThan: .seconds(3600)) == 0)
            #expect(try await queue.prune(completedOlderThan: .zero, deadOlderThan: .zero) == 2)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs") == 0)
        }
    }

    @Test func insertingAJobNotifiesListeners() async throws {
        try await TestDatabase.with { db async throws in
            try await TestDatabase.withClient(db) { client async throws in
                let got = try await client.withConnection { connection in
                    try await connection.listen(on: "relay_jobs") { notifications in
                        try await PostgresJobQueueFactory.make(client).enqueue([NewJob(kind: "k")])
                        for try await _ in notifications { return true }
                        return false
                    }
                }
                #expect(got)
            }
        }
    }
}
