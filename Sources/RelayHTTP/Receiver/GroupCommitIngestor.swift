import AsyncAlgorithms
public import Logging
import Metrics
public import RelayModel
import RelayRuntime
public import ServiceLifecycle
import Synchronization

/// Lets concurrent webhook requests share commits. Each request waits for the commit that
/// holds its own event, so "2xx only after durable" still holds, but one fsync serves many
/// requests: a few writer tasks each take whatever is queued (up to `maxBatch`) and store it
/// in one statement. Under light load a batch is one event and adds no delay.
///
/// On graceful shutdown the queue is drained before the writers stop, so an accepted
/// request in flight is never left without an answer.
public final class GroupCommitIngestor: Service, Sendable {
    struct Pending: Sendable {
        let event: NewWebhookEvent
        let continuation: CheckedContinuation<IngestResult, any Error>
        let deadline: ContinuousClock.Instant
    }

    struct State {
        /// Every unanswered request, queued or in a writer's hands. Whoever removes an entry
        /// answers it, so each request is answered exactly once.
        var waiting: [UInt64: Pending] = [:]
        /// Tickets in arrival order; an answered ticket left here is skipped.
        var queue: [UInt64] = []
        var idleWriters: [CheckedContinuation<Void, Never>] = []
        var nextTicket: UInt64 = 0
        var draining = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let repository: any WebhookEventStore
    private let writers: Int
    private let maxBatch: Int
    private let storeTimeout: Duration
    private let logger: Logger
    private let batchSize = MetricHandles.recorder(.ingestBatchSize)
    private let commitTimer = MetricHandles.timer(.ingestCommitDuration)
    private let commitFailures = MetricHandles.counter(.ingestCommitFailures)
    private let expired = MetricHandles.counter(.ingestDeadlineExceeded)

    /// - Parameter storeTimeout: the longest a request waits for its commit, queueing included;
    ///   past it the request is answered with `DeadlineExceeded` (the receiver says 503).
    public init(repository: any WebhookEventStore, writers: Int, maxBatch: Int, storeTimeout: Duration, logger: Logger) {
        self.repository = repository
        self.writers = max(1, writers)
        self.maxBatch = max(1, maxBatch)
        self.storeTimeout = storeTimeout
        self.logger = logger
    }

    /// Stores `event` durably and returns once its commit is done, or throws when that did not
    /// happen within the store timeout, the store failed, or the service is stopping.
    public func ingest(_ event: NewWebhookEvent) async throws -> IngestResult {
        let ticket = state.withLock { state -> UInt64 in
            state.nextTicket += 1
            return state.nextTicket
        }
        let deadline = ContinuousClock.now + storeTimeout
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (writer, refused) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
                    if state.stopped { return (nil, true) }
                    state.waiting[ticket] = Pending(event: event, continuation: continuation, deadline: deadline)
                    state.queue.append(ticket)
                    return (state.idleWriters.popLast(), false)
                }
                if refused { continuation.resume(throwing: IngestorStopped()) }
                writer?.resume()
            }
        } onCancel: {
            answer([ticket], with: .failure(CancellationError()))
        }
    }

    public func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await self.expireLoop() }
                    await withDiscardingTaskGroup { writers in
                        for _ in 0..<self.writers {
                            writers.addTask { await self.writerLoop() }
                        }
                    }
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                self.beginDraining()
            }
        } onCancel: {
            self.beginDraining()
        }
        // Writers are gone: refuse newcomers and answer any straggler that slipped in.
        let leftovers = state.withLock { state -> [UInt64] in
            state.stopped = true
            return Array(state.waiting.keys)
        }
        answer(leftovers, with: .failure(IngestorStopped()))
    }

    /// Removes the tickets still waiting and resumes each with `result` (outside the lock).
    private func answer(_ tickets: [UInt64], with result: Result<IngestResult, any Error>) {
        let pending = state.withLock { state in tickets.compactMap { state.waiting.removeValue(forKey: $0) } }
        for entry in pending { entry.continuation.resume(with: result) }
    }

    private func beginDraining() {
        let idle = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.draining = true
            defer { state.idleWriters.removeAll() }
            return state.idleWriters
        }
        for writer in idle { writer.resume() }
    }

    /// Answers requests whose deadline passed, whether queued or held by a stuck writer.
    private func expireLoop() async {
        let period = min(max(storeTimeout / 20, .milliseconds(10)), .milliseconds(100))
        for await _ in AsyncTimerSequence(interval: period, clock: .continuous) {
            let now = ContinuousClock.now
            let late = state.withLock { state in state.waiting.filter { $0.value.deadline <= now }.map(\.key) }
            if !late.isEmpty {
                expired.increment(by: late.count)
                answer(late, with: .failure(DeadlineExceeded(limit: storeTimeout)))
            }
        }
    }

    private func writerLoop() async {
        while let batch = await nextBatch() {
            batchSize.record(batch.count)
            let start = ContinuousClock.now
            let tickets = batch.map(\.0)
            do {
                let events = batch.map(\.1)
                let repository = self.repository
                let results = try await withDeadline(storeTimeout) { try await repository.store(events) }
                commitTimer.record(duration: ContinuousClock.now - start)
                let pending = state.withLock { state in tickets.map { state.waiting.removeValue(forKey: $0) } }
                for (entry, result) in zip(pending, results) { entry?.continuation.resume(returning: result) }
            } catch {
                commitFailures.increment()
                logger.error("storing webhook batch failed", metadata: [
                    "batch_size": "\(batch.count)", "error": "\(StoreFailure.describe(error))",
                ])
                answer(tickets, with: .failure(error))
            }
        }
    }

    /// The next batch of (ticket, event), waiting while the queue is empty; nil once draining has emptied it.
    private func nextBatch() async -> [(UInt64, NewWebhookEvent)]? {
        while true {
            enum Step { case batch([(UInt64, NewWebhookEvent)]), finished, wait }
            let step = state.withLock { state -> Step in
                var batch: [(UInt64, NewWebhookEvent)] = []
                var taken = 0
                while taken < state.queue.count, batch.count < maxBatch {
                    let ticket = state.queue[taken]
                    taken += 1
                    if let pending = state.waiting[ticket] { batch.append((ticket, pending.event)) }
                }
                state.queue.removeFirst(taken)
                if !batch.isEmpty { return .batch(batch) }
                return state.draining ? .finished : .wait
            }
            switch step {
            case .batch(let batch): return batch
            case .finished: return nil
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = state.withLock { state -> Bool in
                        if !state.queue.isEmpty || state.draining { return true }
                        state.idleWriters.append(continuation)
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
        }
    }
}
