import Logging
import RelayStore
import Synchronization

/// Marks finished jobs `completed` in batches: one statement (one commit, one fsync) for all
/// the jobs that finished within a few milliseconds, instead of one each. If the process dies
/// before a flush, those jobs' leases run out and they run again: still at least once.
final class CompletionBatcher: Sendable {
    private let pending = Mutex<[Int64]>([])
    private let wake = WakeSignal()
    private let queue: PostgresJobQueue
    private let worker: String
    private let logger: Logger
    static let flushSize = 64
    static let flushInterval = Duration.milliseconds(5)

    init(queue: PostgresJobQueue, worker: String, logger: Logger) {
        self.queue = queue
        self.worker = worker
        self.logger = logger
    }

    func add(_ id: Int64) {
        let count = pending.withLock { ids -> Int in
            ids.append(id)
            return ids.count
        }
        if count >= Self.flushSize { wake.signal() }
    }

    /// Flushes until cancelled, then once more.
    func run() async {
        while !Task.isCancelled {
            await wake.wait(timeout: Self.flushInterval)
            await flush()
        }
        await flush()
    }

    func flush() async {
        let ids = pending.withLock { ids -> [Int64] in
            defer { ids.removeAll() }
            return ids
        }
        guard !ids.isEmpty else { return }
        do {
            try await queue.complete(ids: ids, worker: worker)
        } catch {
            logger.error("marking jobs completed failed; their leases will expire and they will run again",
                         metadata: ["count": "\(ids.count)", "error": "\(PostgresErrorText.describe(error))"])
        }
    }
}
