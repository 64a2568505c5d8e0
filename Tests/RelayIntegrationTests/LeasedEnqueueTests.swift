import Foundation
import Logging
import PostgresNIO
import RelayCore
import RelayDatabase
import RelayQueue
import Synchronization
import Testing

struct ParentJob: JobArgs, Equatable { static let kind = "parent" }
struct ChildJob: RowJobArgs, Equatable {
    static let kind = "child"
    static let idArgument = "n"
    static let uniqueKeyPrefix = "child:"
}

/// Enqueues children through `enqueueText` with its lease parameters, as the reconcile's
/// deliveries are; answers the leased ones' IDs and arguments.
struct EnqueueLeasedStatement: PostgresPreparedStatement {
    typealias Row = ([Int64], [String])
    static let name = "test_enqueue_leased"
    // Each child is its own row, numbered on from every earlier call's, so no two share a unique key.
    static let named = NamedSQL("WITH to_queue AS (SELECT :first::int8 + n - 1 AS id FROM generate_series(1, :count::int) AS n)"
        + PostgresJobQueue.enqueueText(name: "enqueued", from: "to_queue", leased: true)
        + """
        SELECT coalesce((SELECT array_agg(id ORDER BY id) FROM enqueued WHERE leased_by IS NOT NULL), '{}')::int8[],
               coalesce((SELECT array_agg(args::text ORDER BY id) FROM enqueued WHERE leased_by IS NOT NULL), '{}')::text[]
        """)
    static let sql = named.text
    static let numbered = Atomic<Int64>(1)
    let count: Int
    let lease: JobLease?
    let first: Int64
    func makeBindings() -> PostgresBindings {
        var values = NamedBindings()
        values.set("count", count)
        values.set("first", first)
        PostgresJobQueue.setEnqueueValues(ChildJob.self, named: "enqueued", maxAttempts: 5, lease: lease, leased: true, in: &values)
        return values.bindings(for: Self.named)
    }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(([Int64], [String]).self) }

    static func run(_ count: Int, lease: JobLease?, on client: PostgresClient) async throws -> [ClaimedJob] {
        var jobs: [ClaimedJob] = []
        for try await (ids, args) in try await client.execute(EnqueueLeasedStatement(count: count, lease: lease,
                                                                                     first: numbered.add(Int64(count), ordering: .relaxed).oldValue), logger: TestDatabase.logger) {
            jobs += PostgresJobQueue.leasedJobs(kind: ChildJob.kind, maxAttempts: 5, ids: ids, args: args)
        }
        return jobs
    }
}

/// A parent that enqueues two children for its own worker to run next.
struct ParentHandler: JobHandler {
    let client: PostgresClient
    func run(_ args: ParentJob, context: JobContext) async throws -> JobResult {
        let children = try await EnqueueLeasedStatement.run(2, lease: context.lease(forRunning: ChildJob.kind), on: client)
        return JobResult(.completed, then: children)
    }
}

struct ChildHandler: JobHandler {
    let runs: Runs
    final class Runs: Sendable {
        let attempts = Mutex<[Int]>([])
    }
    func run(_ args: ChildJob, context: JobContext) async throws -> JobResult {
        runs.attempts.withLock { $0.append(context.attempt) }
        return .completed
    }
}

@Suite("Jobs enqueued under a worker's lease", .timeLimit(.minutes(2)))
struct LeasedEnqueueTests {
    /// With a worker, the jobs are inserted claimed by it, in their first attempt; without,
    /// available. A leased job whose worker dies is rescued when the lease runs out.
    @Test func theLeaseClaimsAtInsertAndRunsOutLikeAClaim() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let queue = PostgresJobQueueFactory.make(client)
            let leased = try await EnqueueLeasedStatement.run(2, lease: JobLease(worker: "w1", duration: .seconds(30)), on: client)
            #expect(leased.map(\.attempt) == [1, 1])
            #expect(leased.map(\.kind) == [ChildJob.kind, ChildJob.kind])
            // In the order of their rows: the arguments the queue built from each row's ID.
            let numbers = try leased.compactMap { try JSONValue.parse(Array($0.args.utf8))["n"]?.int64Value }
            #expect(numbers.count == 2 && numbers.last == numbers.first.map { $0 + 1 }, "\(numbers)")
            #expect(try await EnqueueLeasedStatement.run(1, lease: nil, on: client).isEmpty)
            let rows = try await queue.list(state: nil, limit: 10).sorted { $0.id < $1.id }
            #expect(rows.map(\.state) == [.running, .running, .available])
            #expect(rows.map(\.attempt) == [1, 1, 0])
            #expect(rows.map(\.leasedBy) == ["w1", "w1", nil])
            #expect(try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30), kinds: [ChildJob.kind]).map(\.id) == [rows[2].id],
                    "a leased job is not claimable")
            let expiring = try await EnqueueLeasedStatement.run(1, lease: JobLease(worker: "w3", duration: .milliseconds(1)), on: client)
            try await Task.sleep(for: .milliseconds(20))
            #expect(try await queue.rescueExpiredLeases(maxCrashes: 3).retried == 1)
            let rescued = try #require(try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30), kinds: [ChildJob.kind]).first)
            #expect(rescued.id == expiring.first?.id)
            #expect(rescued.attempt == 2)
            #expect(rescued.crashes == 1)
        }
    }

    /// The children run on the parent's worker with no claim (they are never claimable) and
    /// are recorded like claimed runs.
    @Test func aWorkerRunsWhatItsHandlerEnqueuedUnderItsLease() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let queue = PostgresJobQueueFactory.make(client)
            let runs = ChildHandler.Runs()
            let worker = JobWorker(queue: queue, handlers: [AnyJobHandler(ParentHandler(client: client)), AnyJobHandler(ChildHandler(runs: runs))],
                                   configuration: JobWorkerConfiguration(workerID: "parent-worker", concurrency: 4, pollInterval: .seconds(60)),
                                   logger: TestDatabase.logger)
            try await queue.enqueue([try NewJob(ParentJob())])
            let running = Task { try await worker.run() }
            defer { running.cancel() }
            #expect(try await eventually(timeout: .seconds(30)) { try await queue.list(state: .completed, limit: 10).count == 3 })
            #expect(runs.attempts.withLock { $0 } == [1, 1])
            let children = try await queue.list(state: .completed, limit: 10).filter { $0.kind == ChildJob.kind }
            #expect(children.map(\.attempt) == [1, 1])
            #expect(children.map(\.leasedBy) == ["parent-worker", "parent-worker"], "run on the parent's worker, never claimed")
        }
    }

    @Test func aHandlerGetsALeaseOnlyForKindsItsWorkerRuns() {
        let lease = JobLease(worker: "w", duration: .seconds(30))
        let context = JobContext(id: 1, attempt: 1, maxAttempts: 1, logger: TestDatabase.logger, lease: lease, runnableKinds: [ParentJob.kind])
        #expect(context.lease(forRunning: ParentJob.kind) == lease)
        #expect(context.lease(forRunning: ChildJob.kind) == nil)
    }
}

extension LeasedEnqueueTests {
    /// A worker never runs more than its concurrency: past its free slots, jobs go in
    /// available for anyone to claim.
    @Test func aLeaseCoversNoMoreJobsThanTheWorkersFreeSlots() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let queue = PostgresJobQueueFactory.make(client)
            let leased = try await EnqueueLeasedStatement.run(3, lease: JobLease(worker: "w1", duration: .seconds(30), limit: 2), on: client)
            #expect(leased.count == 2)
            let rows = try await queue.list(state: nil, limit: 10).sorted { $0.id < $1.id }
            #expect(rows.map(\.state) == [.running, .running, .available])
            #expect(rows.map(\.leasedBy) == ["w1", "w1", nil])
        }
        let lease = JobLease(worker: "w", duration: .seconds(30))
        func context(free: Int) -> JobContext {
            JobContext(id: 1, attempt: 1, maxAttempts: 1, logger: TestDatabase.logger, lease: lease, runnableKinds: [ChildJob.kind],
                       freeSlots: { free })
        }
        #expect(context(free: 3).lease(forRunning: ChildJob.kind)?.limit == 3)
        #expect(context(free: 0).lease(forRunning: ChildJob.kind) == nil, "no slot: nothing is leased")
    }
}
