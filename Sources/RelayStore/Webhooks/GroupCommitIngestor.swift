import Logging
import Metrics
import RelayCore
import ServiceLifecycle
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
        let ticket: UInt64
        let event: NewWebhookEvent
        let continuation: CheckedContinuation<IngestResult, any Error>
    }

    struct State {
        var queue: [Pending] = []
        var idleWriters: [CheckedContinuation<Void, Never>] = []
        var nextTicket: UInt64 = 0
        var draining = false
        var stopped = false
    }

    private let state = Mutex(State())
    private let repository: any WebhookEventRepository
    private let writers: Int
    private let maxBatch: Int
    private let storeTimeout: Duration
    private let logger: Logger
    private let batchSize = Recorder(label: "relay_ingest_batch_size")
    private let commitTimer = Metrics.Timer(label: "relay_ingest_commit_duration_seconds")
    private let commitFailures = Counter(label: "relay_ingest_commit_failures_total")

    public init(repository: any WebhookEventRepository, writers: Int, maxBatch: Int, storeTimeout: Duration, logger: Logger) {
        self.repository = repository
        self.writers = max(1, writers)
        self.maxBatch = max(1, maxBatch)
        self.storeTimeout = storeTimeout
        self.logger = logger
    }

    /// Stores `event` durably and returns once its commit is done. Cancelling the calling
    /// task (a request deadline) withdraws an event that no writer has taken yet.
    public func ingest(_ event: NewWebhookEvent) async throws -> IngestResult {
        let ticket = state.withLock { state -> UInt64 in
            state.nextTicket += 1
            return state.nextTicket
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (writer, refused) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Bool) in
                    if state.stopped { return (nil, true) }
                    state.queue.append(Pending(ticket: ticket, event: event, continuation: continuation))
                    return (state.idleWriters.popLast(), false)
                }
                if refused { continuation.resume(throwing: StoreError.shuttingDown) }
                writer?.resume()
            }
        } onCancel: {
            let withdrawn = state.withLock { state -> Pending? in
                guard let index = state.queue.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.queue.remove(at: index)
            }
            withdrawn?.continuation.resume(throwing: CancellationError())
        }
    }

    public func run() async throws {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withDiscardingTaskGroup { group in
                    for _ in 0..<writers {
                        group.addTask { await self.writerLoop() }
                    }
                }
            } onGracefulShutdown: {
                self.beginDraining()
            }
        } onCancel: {
            self.beginDraining()
        }
        // Writers are gone: refuse newcomers and answer any straggler that slipped in.
        let leftovers = state.withLock { state -> [Pending] in
            state.stopped = true
            defer { state.queue.removeAll() }
            return state.queue
        }
        for pending in leftovers { pending.continuation.resume(throwing: StoreError.shuttingDown) }
    }

    private func beginDraining() {
        let idle = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.draining = true
            defer { state.idleWriters.removeAll() }
            return state.idleWriters
        }
        for writer in idle { writer.resume() }
    }

    private func writerLoop() async {
        while let batch = await nextBatch() {
            batchSize.record(batch.count)
            let start = ContinuousClock.now
            do {
                let events = batch.map(\.event)
                let repository = self.repository
                let results = try await withDeadline(storeTimeout) { try await repository.store(events) }
                commitTimer.recordInterval(since: start)
                for (pending, result) in zip(batch, results) { pending.continuation.resume(returning: result) }
            } catch {
                commitFailures.increment()
                logger.error("storing webhook batch failed", metadata: [
                    "batch_size": "\(batch.count)", "error": "\(PostgresErrorText.describe(error))",
                ])
                for pending in batch { pending.continuation.resume(throwing: error) }
            }
        }
    }

    /// The next batch, waiting while the queue is empty; nil once draining has emptied it.
    private func nextBatch() async -> [Pending]? {
        while true {
            enum Step { case batch([Pending]), finished, wait }
            let step = state.withLock { state -> Step in
                if !state.queue.isEmpty {
                    let count = min(maxBatch, state.queue.count)
                    defer { state.queue.removeFirst(count) }
                    return .batch(Array(state.queue.prefix(count)))
                }
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

extension Metrics.Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }
}
