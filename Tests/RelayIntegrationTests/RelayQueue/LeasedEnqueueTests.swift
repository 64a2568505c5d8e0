import Foundation
import Logging
import PostgresNIO
import RelayModel
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

/// Enqueues children with the queue's `JobInsert` fragment, as the reconcile's deliveries are;
/// in a worker's run (`FollowUpJobs`) the leased ones go to it.
struct EnqueueLeasedStatement: PostgresPreparedStatement {
    typealias Row = ([Int64], [String])
    static let name = "test_enqueue_leased"
    static let children = JobInsert<ChildJob>(as: "enqueued", forEachRowOf: "to_queue", maxAttempts: 5)
    // Each child is its own row, numbered on from every earlier call's, so no two share a unique key.
    static let named = NamedSQL("""
        WITH to_queue AS (SELECT :first::int8 + n - 1 AS id FROM generate_series(1, :count::int) AS n),
        \(children.text)
        SELECT ids, args FROM enqueued_leased
        """)
    static let sql = named.text
    static let numbered = Atomic<Int64>(1)
    let count: Int
    let first: Int64
    let followUps: (any JobAdopter)?
    func makeBindings() -> PostgresBindings {
        var values = NamedBindings()
        values.set("count", count)
        values.set("first", first)
        values.merge(Self.children.values(leasingTo: followUps))
        return values.bindings(for: Self.named)
    }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(([Int64], [String]).self) }

    /// Inserts `count` children under `followUps` (nil: no worker's run); answers how many were
    /// inserted leased (and handed to the run).
    @discardableResult
    static func run(_ count: Int, followUps: (any JobAdopter)?, on client: PostgresClient) async throws -> Int {
        let statement = EnqueueLeasedStatement(count: count, first: numbered.add(Int64(count), ordering: .relaxed).oldValue,
                                               followUps: followUps)
        var leased = 0
        for try await (ids, args) in try await client.execute(statement, logger: TestDatabase.logger) {
            leased += children.adopt(ids: ids, args: args, into: followUps)
        }
        return leased
    }

    /// The same, in a run of a worker `worker` that runs children, with `free` slots.
    static func run(_ count: Int, worker: String, lease: Duration = .seconds(30), free: Int = .max,
                    kinds: Set<String> = [ChildJob.kind], on client: PostgresClient) async throws -> [ClaimedJob] {
        let run = FollowUpJobs(lease: JobLease(worker: worker, duration: lease), runnableKinds: kinds, freeSlots: { free })
        try await Self.run(count, followUps: run, on: client)
        return run.jobs
    }
}

/// A parent that enqueues two children, which its own worker runs next.
struct ParentHandler: JobHandler {
    let client: PostgresClient
    func run(_ args: ParentJob, context: JobContext) async throws -> JobResult {
        try await EnqueueLeasedStatement.run(2, followUps: context.followUps, on: client)
        return .completed
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
            let leased = try await EnqueueLeasedStatement.run(2, worker: "w1", on: client)
            #expect(leased.map(\.attempt) == [1, 1])
            #expect(leased.map(\.kind) == [ChildJob.kind, ChildJob.kind])
            // In the order of their rows: the arguments the queue built from each row's ID.
            let numbers = try leased.compactMap { try JSONValue.parse(Array($0.args.utf8))["n"]?.int64Value }
            #expect(numbers.count == 2 && numbers.last == numbers.first.map { $0 + 1 }, "\(numbers)")
            #expect(try await EnqueueLeasedStatement.run(1, followUps: nil, on: client) == 0, "outside a worker's run: available")
            let rows = try await queue.list(state: nil, limit: 10).sorted { $0.id < $1.id }
            #expect(rows.map(\.state) == [.running, .running, .available])
            #expect(rows.map(\.attempt) == [1, 1, 0])
            #expect(rows.map(\.leasedBy) == ["w1", "w1", nil])
            #expect(try await queue.claim(worker: "w2", limit: 10, lease: .seconds(30), kinds: [ChildJob.kind]).map(\.id) == [rows[2].id],
                    "a leased job is not claimable")
            let expiring = try await EnqueueLeasedStatement.run(1, worker: "w3", lease: .milliseconds(1), on: client)
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

    /// A worker that has no handler for the kind gets none leased: they go in available.
    @Test func aRunGetsJobsLeasedOnlyOfKindsItsWorkerRuns() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let queue = PostgresJobQueueFactory.make(client)
            #expect(try await EnqueueLeasedStatement.run(2, worker: "w1", kinds: [ParentJob.kind], on: client).isEmpty)
            let rows = try await queue.list(state: nil, limit: 10)
            #expect(rows.map(\.state) == [.available, .available])
            #expect(rows.allSatisfy { $0.leasedBy == nil })
        }
    }
}

extension LeasedEnqueueTests {
    /// A worker never runs more than its concurrency: past its free slots, jobs go in
    /// available for anyone to claim.
    @Test func aLeaseCoversNoMoreJobsThanTheWorkersFreeSlots() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let queue = PostgresJobQueueFactory.make(client)
            let leased = try await EnqueueLeasedStatement.run(3, worker: "w1", free: 2, on: client)
            #expect(leased.count == 2)
            let rows = try await queue.list(state: nil, limit: 10).sorted { $0.id < $1.id }
            #expect(rows.map(\.state) == [.running, .running, .available])
            #expect(rows.map(\.leasedBy) == ["w1", "w1", nil])
        }
        // No slot free: nothing is leased.
        try await TestDatabase.withFresh { db, client async throws in
            #expect(try await EnqueueLeasedStatement.run(2, worker: "w1", free: 0, on: client).isEmpty)
        }
        // One run asking twice gets no more than its free slots in all.
        try await TestDatabase.withFresh { db, client async throws in
            let run = FollowUpJobs(lease: JobLease(worker: "w1", duration: .seconds(30)), runnableKinds: [ChildJob.kind], freeSlots: { 3 })
            try await EnqueueLeasedStatement.run(2, followUps: run, on: client)
            try await EnqueueLeasedStatement.run(2, followUps: run, on: client)
            #expect(run.jobs.count == 3)
        }
    }
}

extension LeasedEnqueueTests {
    /// What a caller outside any run hands the worker of its process (`JobHandoff`, the
    /// receiver's reconcile jobs) runs there with no claim: its poll is a minute away and
    /// nothing notifies. Past its free slots, the rest go in available. Once the worker has
    /// stopped, it is handed nothing.
    @Test func aWorkerRunsWhatACallerOutsideItsRunsHandsIt() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let queue = PostgresJobQueueFactory.make(client)
            let runs = ChildHandler.Runs()
            let worker = JobWorker(queue: queue, handlers: [AnyJobHandler(ChildHandler(runs: runs))],
                                   configuration: JobWorkerConfiguration(workerID: "serve-worker", concurrency: 2, pollInterval: .seconds(60)),
                                   logger: TestDatabase.logger)
            let running = Task { try await worker.run() }
            defer { running.cancel() }
            // Its first poll claims nothing (there is nothing yet); then only the hand-off can start a run.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await EnqueueLeasedStatement.run(3, followUps: worker.handoff, on: client) == 2, "two free slots")
            #expect(try await eventually(timeout: .seconds(30)) { try await queue.list(state: .completed, limit: 10).count == 2 })
            #expect(runs.attempts.withLock { $0 } == [1, 1])
            let rows = try await queue.list(state: nil, limit: 10).sorted { $0.id < $1.id }
            #expect(rows.map(\.state) == [.completed, .completed, .available], "the third waits for a claim")
            #expect(rows.prefix(2).map(\.leasedBy) == ["serve-worker", "serve-worker"])
            running.cancel()
            _ = try? await running.value
            #expect(worker.handoff.lease(forRunning: ChildJob.kind) == nil, "a stopped worker is handed nothing")
        }
    }
}
