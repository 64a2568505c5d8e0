import Foundation
import PostgresNIO
import RelayModel
import RelayDatabase
import RelayQueue
import RelayRuntime
import RelayStore
import Synchronization
import Testing

/// Arguments of the jobs these tests enqueue.
struct CountedJob: JobArgs, Equatable {
    static let kind = "noop"
    var n: Int
}

struct PlainJob: JobArgs, Equatable {
    static let kind = "k"
}

@Suite("The PostgreSQL job queue", .timeLimit(.minutes(3)))
struct JobQueueTests {
    /// Records one run's outcome; returns the job's new state, nil when the run no longer held it.
    func finish(_ queue: PostgresJobQueue, _ job: ClaimedJob, _ outcome: JobOutcome, worker: String) async throws -> JobState? {
        try await queue.finish([JobFinish(id: job.id, attempt: job.attempt, outcome: outcome)], worker: worker)[job.id]
    }

    func claimOne(_ queue: PostgresJobQueue, worker: String = "w", lease: Duration = .seconds(30)) async throws -> ClaimedJob? {
        try await queue.claim(worker: worker, limit: 1, lease: lease, kinds: [PlainJob.kind]).first
    }

    @Test func concurrentClaimersNeverShareAJob() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue((0..<200).map { try NewJob(CountedJob(n: $0)) })
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

    @Test func argumentsRoundTripTyped() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue([try NewJob(CountedJob(n: 9_007_199_254_740_993))])
            let job = try #require(try await queue.claim(worker: "w", limit: 1, lease: .seconds(30), kinds: ["noop"]).first)
            #expect(try job.decode(CountedJob.self) == CountedJob(n: 9_007_199_254_740_993), "integers never pass through Double")
            #expect(throws: (any Error).self) { try job.decode(ReconcileWebhookJob.self) }
        }
    }

    @Test func uniqueKeysHoldOnlyWhileUnfinished() async throws {
        try await withQueue { queue, _ in
            let first = try await queue.enqueue([try NewJob(PlainJob(), uniqueKey: "item:1")])
            #expect(first.count == 1)
            #expect(try await queue.enqueue([try NewJob(PlainJob(), uniqueKey: "item:1")]).isEmpty)
            #expect(try await queue.enqueue([try NewJob(PlainJob(), uniqueKey: "item:1"), try NewJob(PlainJob(), uniqueKey: "item:2"),
                                             try NewJob(PlainJob(), uniqueKey: "item:2")]).count == 1, "one statement, repeats skipped")
            let job = try #require(try await claimOne(queue))
            #expect(try await queue.enqueue([try NewJob(PlainJob(), uniqueKey: "item:1")]).isEmpty)
            #expect(try await finish(queue, job, .completed, worker: "w") == .completed)
            #expect(try await queue.enqueue([try NewJob(PlainJob(), uniqueKey: "item:1")]).count == 1)
        }
    }

    @Test func onlyTheLeaseHolderOfThatRunFinishesAJob() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue([try NewJob(PlainJob())])
            let job = try #require(try await claimOne(queue, worker: "a"))
            #expect(job.attempt == 1)
            #expect(try await finish(queue, job, .completed, worker: "b") == nil)
            #expect(try await queue.heartbeat(ids: [job.id], worker: "b", lease: .seconds(30)).isEmpty)
            #expect(try await queue.heartbeat(ids: [job.id], worker: "a", lease: .seconds(30)) == [job.id])
            var earlierRun = job
            earlierRun.attempt = 0
            #expect(try await finish(queue, earlierRun, .completed, worker: "a") == nil, "another run's outcome is refused")
            #expect(try await finish(queue, job, .completed, worker: "a") == .completed)
            #expect(try await finish(queue, job, .completed, worker: "a") == nil)
        }
    }

    @Test func failuresRetryThenDieAndSnoozesSpendNoAttempt() async throws {
        try await withQueue { queue, db in
            try await queue.enqueue([try NewJob(PlainJob(), maxAttempts: 2)])
            var job = try #require(try await claimOne(queue))
            #expect(try await finish(queue, job, .snooze(.zero), worker: "w") == .retryable)
            job = try #require(try await claimOne(queue))
            #expect(job.attempt == 1)
            #expect(try await finish(queue, job, .retry(error: "boom 1", delay: .seconds(3600)), worker: "w") == .retryable)
            #expect(try await claimOne(queue) == nil)
            #expect(try await queue.retry(id: job.id) == .scheduled)
            job = try #require(try await claimOne(queue))
            #expect(job.attempt == 2)
            #expect(try await finish(queue, job, .retry(error: "boom\0 2", delay: .zero), worker: "w") == .dead)
            let record = try #require(try await queue.list(state: .dead, limit: 10).first)
            #expect(record.errorCount == 2 && record.lastError == "boom\u{FFFD} 2", "a NUL in an error cannot stop the record")
            #expect(try await queue.retry(id: job.id) == .scheduled)
            #expect(try await TestDatabase.scalar(db, "SELECT max_attempts FROM jobs") == 3)
            #expect(try await queue.retry(id: 999_999) == .notFound)
            let again = try #require(try await claimOne(queue))
            #expect(try await finish(queue, again, .completed, worker: "w") == .completed)
            #expect(try await queue.retry(id: job.id) == .notRetryable(state: .completed))
        }
    }

    @Test func expiredLeasesAreRescuedAndOldJobsPruned() async throws {
        try await withQueue { queue, db in
            try await queue.enqueue([try NewJob(PlainJob()), try NewJob(PlainJob(), maxAttempts: 1)])
            let jobs = try await queue.claim(worker: "dead-worker", limit: 2, lease: .milliseconds(200), kinds: ["k"])
            #expect(jobs.count == 2)
            try await Task.sleep(for: .milliseconds(400))
            #expect(try await queue.rescueExpiredLeases(maxCrashes: 3) == .init(retried: 1, dead: 1))
            // The one with attempts left is claimable again; the other is dead.
            let again = try await queue.claim(worker: "live-worker", limit: 5, lease: .seconds(30), kinds: ["k"])
            #expect(again.count == 1)
            #expect(again.first?.attempt == 2 && again.first?.crashes == 1)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE errors::text LIKE '%lease expired%'") == 2)
            #expect(try await finish(queue, again[0], .completed, worker: "live-worker") == .completed)
            #expect(try await queue.prune(completedOlderThan: .seconds(3600), deadOlderThan: .seconds(3600)) == 0)
            #expect(try await queue.prune(completedOlderThan: .zero, deadOlderThan: .zero) == 2)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs") == 0)
        }
    }

    /// A job that takes its worker down every time (a poison job) is handed out
    /// `maxCrashes` times, then it is dead with the reason, instead of killing every worker.
    @Test func aJobWhoseWorkerKeepsDyingGoesDead() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue([try NewJob(PlainJob(), maxAttempts: 25)])
            for round in 1...3 {
                let job = try #require(try await claimOne(queue, worker: "victim-\(round)", lease: .milliseconds(100)))
                #expect(job.crashes == round - 1)
                try await Task.sleep(for: .milliseconds(250))
                let rescue = try await queue.rescueExpiredLeases(maxCrashes: 3)
                #expect(rescue == (round < 3 ? .init(retried: 1, dead: 0) : .init(retried: 0, dead: 1)))
            }
            #expect(try await claimOne(queue) == nil)
            let record = try #require(try await queue.list(state: .dead, limit: 1).first)
            #expect(record.crashes == 3)
            #expect(record.lastError == "worker died while running it 3 times")
            #expect(try await queue.retry(id: record.id) == .scheduled, "a redrive forgives the crashes")
            #expect(try await claimOne(queue)?.crashes == 0)
        }
    }

    /// A job per row of a caller's statement, keyed by the row (`RowJobArgs`).
    struct KeyedJob: RowJobArgs {
        static let kind = PlainJob.kind
        static let idArgument = "key"
        static let uniqueKeyPrefix = "keyed:"
    }

    /// A statement with the queue's `JobInsert` fragment, prepared as the receiver's and the reconcile's are.
    struct EnqueueKeysStatement: PostgresPreparedStatement {
        typealias Row = Int64
        static let name = "test_enqueue_keys"
        static let named = NamedSQL("""
            WITH to_queue AS (SELECT key AS id FROM unnest(:keys::text[]) AS key),
            \(JobInsert<KeyedJob>(as: "enqueued", forEachRowOf: "to_queue", maxAttempts: 1).text)
            SELECT count(*)::int8 FROM enqueued
            """)
        static let sql = named.text
        let keys: [String]
        let maxAttempts: Int
        func makeBindings() -> PostgresBindings {
            var values = NamedBindings()
            values.set("keys", keys)
            values.merge(JobInsert<KeyedJob>(as: "enqueued", forEachRowOf: "to_queue", maxAttempts: maxAttempts).values(leasingTo: nil))
            return values.bindings(for: Self.named)
        }
        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The queue's fragment keeps the queue's rules (one live job per unique key, at least one
    /// attempt) and leaves NOTIFY to the caller's wake after its commit (inside the
    /// transaction it would make concurrent commits wait for each other's WAL flush).
    @Test func anEnqueueInACallersStatementKeepsTheQueuesRules() async throws {
        #expect(!EnqueueKeysStatement.sql.contains("pg_notify"))
        try await withQueue { queue, db in
            try await TestDatabase.withClient(db) { client async throws in
                func enqueue(_ keys: [String], maxAttempts: Int) async throws -> Int64? {
                    for try await count in try await client.execute(EnqueueKeysStatement(keys: keys, maxAttempts: maxAttempts)) {
                        return count
                    }
                    return nil
                }
                #expect(try await enqueue(["a", "b"], maxAttempts: 0) == 2)
                #expect(try await enqueue(["a", "c"], maxAttempts: 3) == 1, "a is still live: only c is new")
                let a = try #require(try await claimOne(queue))
                #expect(a.maxAttempts == 1, "fewer than one attempt is raised to one")
                #expect(try await finish(queue, a, .completed, worker: "w") == .completed)
                #expect(try await enqueue(["a"], maxAttempts: 3) == 1, "a finished job frees its key")
            }
        }
    }

    @Test func enqueueingNotifiesListeners() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            // A missing NOTIFY ends the wait at its deadline (a failure), not never.
            let got = try? await withDeadline(.seconds(10)) {
                try await client.withConnection { connection in
                    try await connection.listen(on: PostgresJobQueue.channel) { notifications in
                        try await PostgresJobQueueFactory.make(client).enqueue([try NewJob(PlainJob())])
                        for try await _ in notifications { return true }
                        return false
                    }
                }
            }
            #expect(got == true, "no notification within 10 s")
        }
    }

    /// A handler that never returns, not even when cancelled (an await on a connection that
    /// died mid-query), holds its job only until ENTRUPY_RELAY_JOB_TIMEOUT_SECONDS: then the run counts as
    /// failed, the job is retried, and when its attempts are spent it is dead with the reason.
    @Test func aRunThatNeverReturnsIsBoundedByTheJobTimeout() async throws {
        try await withQueue { queue, _ in
            try await queue.enqueue([try NewJob(PlainJob(), maxAttempts: 2)])
            let worker = JobWorker(queue: queue, handlers: [AnyJobHandler(NeverReturningHandler())],
                                   configuration: JobWorkerConfiguration(concurrency: 2, pollInterval: .milliseconds(100),
                                                                         backoffBase: .milliseconds(10), jobTimeout: .seconds(1)),
                                   logger: TestDatabase.logger)
            let running = Task { try await worker.run() }
            defer { running.cancel() }
            #expect(try await eventually(timeout: .seconds(30)) { try await queue.list(state: .dead, limit: 10).count == 1 })
            let record = try #require(try await queue.list(state: .dead, limit: 10).first)
            #expect(record.errorCount == 2)
            #expect(record.lastError?.contains("did not finish within 1 s") == true, "\(record.lastError ?? "-")")
        }
    }

}

/// Never returns and ignores cancellation (its continuations are kept, never resumed).
struct NeverReturningHandler: JobHandler {
    static let held = Mutex<[CheckedContinuation<Void, Never>]>([])

    func run(_ args: PlainJob, context: JobContext) async throws -> JobResult {
        await withCheckedContinuation { continuation in Self.held.withLock { $0.append(continuation) } }
        return .completed
    }
}
