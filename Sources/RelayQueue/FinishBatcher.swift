import Logging
import PostgresNIO
import RelayDatabase
import RelayRuntime
import Synchronization

/// Records finished runs in batches: a batch is written once `batchSize` runs have finished
/// or `linger` has passed since the first of them, and whatever finishes while one batch is
/// written goes into the next, so one commit serves many runs under load and a lone run
/// waits at most `linger`. A batch is one statement, with the writes handlers attached
/// (`JobRecordWrite`) as its CTEs, so they commit with their jobs.
///
/// A batch that cannot be written is tried again, with backoff, while its runs' leases are
/// held (the worker keeps renewing them until they are recorded); past the lease it is
/// dropped and logged, and the rescue makes the jobs run again: still at least once. Once
/// closed (the worker is stopping) the pending runs have a bounded time to be recorded, and
/// what the database does not take by then is dropped the same way, so a database that is
/// down (or a pool already closed) cannot hold a shutdown for the length of a lease.
final class FinishBatcher: Sendable {
    struct Entry: Sendable {
        let job: ClaimedJob
        let finish: JobFinish
        let record: (any JobRecordWrite)?
        let addedAt: ContinuousClock.Instant
    }

    private struct State {
        var pending: [Entry] = []
        var waiter: CheckedContinuation<Void, Never>?
        var closed = false
        /// Set by `close`: past it nothing more is tried, what is left is dropped.
        var giveUpAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let client: PostgresClient
    /// Where a batch that carries handlers' writes (`JobRecordWrite`) goes: `client` may be a
    /// pool whose commits do not wait for the WAL flush, and those writes are data (a
    /// delivery's attempt and state), not bookkeeping.
    private let recordsClient: PostgresClient
    private let worker: String
    private let lease: Duration
    private let logger: Logger
    /// Called after each attempt at a batch: the entries, and the new state of each job that
    /// was recorded (absent: lease lost, or the batch was given up).
    private let onRecorded: @Sendable ([Entry], [Int64: JobState]) -> Void
    static let maxBatch = 512
    let batchSize: Int
    let linger: Duration

    init(client: PostgresClient, recordsClient: PostgresClient? = nil, worker: String, lease: Duration, batchSize: Int,
         linger: Duration = .milliseconds(2), logger: Logger, onRecorded: @escaping @Sendable ([Entry], [Int64: JobState]) -> Void) {
        self.client = client
        self.recordsClient = recordsClient ?? client
        self.batchSize = min(max(1, batchSize), Self.maxBatch)
        self.linger = linger
        self.worker = worker
        self.lease = lease
        self.logger = logger
        self.onRecorded = onRecorded
    }

    var unrecorded: Int { state.withLock { $0.pending.count } }

    func add(_ entry: Entry) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.pending.append(entry)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Records batches until `close()` was called and nothing is left.
    func run() async {
        while let batch = await nextBatch() {
            await record(batch)
        }
    }

    /// No more runs will be added: `run` returns once the pending ones are recorded, or once
    /// `flushWithin` has passed, dropping (and logging) what the database did not take by then.
    func close(flushWithin limit: Duration) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            state.giveUpAt = min(state.giveUpAt ?? .now + limit, .now + limit)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    private func nextBatch() async -> [Entry]? {
        var lingered = false
        while true {
            // A small batch waits a moment for company, once.
            if !lingered, state.withLock({ !$0.pending.isEmpty && $0.pending.count < batchSize && !$0.closed }) {
                lingered = true
                try? await Task.sleep(for: linger)
            }
            let batch = state.withLock { state -> [Entry]? in
                guard !state.pending.isEmpty else { return state.closed ? nil : [] }
                let count = min(state.pending.count, Self.maxBatch)
                defer { state.pending.removeFirst(count) }
                return Array(state.pending.prefix(count))
            }
            guard let batch else { return nil }
            if !batch.isEmpty { return batch }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if !state.pending.isEmpty || state.closed { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    private func record(_ batch: [Entry]) async {
        var wait = Duration.milliseconds(50)
        while true {
            let (giveUpAt, stopping) = giveUpTime(batch)
            do {
                guard ContinuousClock.now < giveUpAt else { throw DeadlineExceeded(limit: .zero) }
                let states: [Int64: JobState]
                if stopping {
                    states = try await withDeadline(giveUpAt - .now) { try await self.write(batch) }
                } else {
                    states = try await write(batch)
                }
                onRecorded(batch, states)
                return
            } catch where Self.isRefusedData(error) {
                // The server refused what the batch wrote (not the connection, not a restart):
                // record each run on its own, so one bad write cannot hold back the others.
                if batch.count > 1 {
                    for entry in batch { await record([entry]) }
                    return
                }
                await recordWithoutWrite(batch[0], refusal: PostgresErrorText.describe(error))
                return
            } catch {
                let now = ContinuousClock.now
                if now + wait >= giveUpAt || PostgresErrorText.isPoolClosed(error) {
                    giveUp(batch, stopping: stopping, error: error)
                    return
                }
                logger.warning("recording finished jobs failed; trying again",
                               metadata: ["count": "\(batch.count)", "error": "\(PostgresErrorText.describe(error))"])
                try? await Task.sleep(for: min(wait, giveUpAt - now))
                wait = min(wait * 2, .seconds(2))
            }
        }
    }

    /// When to stop trying `batch`: when the first of its leases runs out or, once closed, when
    /// the flush's time is up (`stopping`).
    private func giveUpTime(_ batch: [Entry]) -> (ContinuousClock.Instant, stopping: Bool) {
        let leaseEnds = (batch.map(\.addedAt).min() ?? .now) + lease
        guard let giveUpAt = state.withLock({ $0.giveUpAt }), giveUpAt < leaseEnds else { return (leaseEnds, false) }
        return (giveUpAt, true)
    }

    /// Drops a batch that could not be recorded: its jobs are still `running` under this
    /// worker's lease, which runs out, and the rescue makes them run again.
    private func giveUp(_ batch: [Entry], stopping: Bool, error: any Error) {
        let reason = error is DeadlineExceeded ? "the shutdown's time to record them ran out" : PostgresErrorText.describe(error)
        logger.error("recording finished jobs failed; dropped: their leases will expire and they will run again", metadata: [
            "count": "\(batch.count)", "job_ids": "\(batch.map(\.job.id))", "stopping": "\(stopping)", "error": "\(reason)"])
        onRecorded(batch, [:])
    }

    /// A refusal of the data itself: a data exception (SQLSTATE class 22), an integrity
    /// violation (23) or a program limit (54). Anything else (a lost connection, a server
    /// starting or shutting down) is tried again as it is.
    static func isRefusedData(_ error: any Error) -> Bool {
        guard let state = PostgresErrorText.sqlState(error) else { return false }
        return ["22", "23", "54"].contains(String(state.prefix(2)))
    }

    /// The server refused this run's write: record the job as failed instead (it runs again),
    /// so it is neither lost nor recorded as done without what it did.
    private func recordWithoutWrite(_ entry: Entry, refusal: String) async {
        logger.error("the server refused a job's record; the job will run again", metadata: [
            "job_id": "\(entry.job.id)", "job_kind": "\(entry.job.kind)", "error": "\(refusal)"])
        var finish = entry.finish
        finish.outcome = .retry(error: "recording the run failed: \(refusal)", delay: .seconds(5))
        let states = (try? await client.withConnection { connection in
            try await PostgresJobQueue.finish([finish], worker: self.worker, on: connection, logger: self.logger)
        }) ?? [:]
        onRecorded([entry], states)
    }

    /// One statement: the jobs' new states and the handlers' writes, in one round trip.
    private func write(_ batch: [Entry]) async throws -> [Int64: JobState] {
        let pool = batch.contains { $0.record != nil } ? recordsClient : client
        return try await pool.withConnection { connection in
            try await PostgresJobQueue.finish(batch.map(\.finish), records: batch.compactMap(\.record), worker: self.worker,
                                              on: connection, logger: self.logger)
        }
    }
}
