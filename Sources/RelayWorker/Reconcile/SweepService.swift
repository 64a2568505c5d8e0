import AsyncAlgorithms
public import Logging
import RelayCore
import RelayDatabase
public import RelayQueue
public import RelayStore
public import ServiceLifecycle

/// Heals missed webhooks: every `interval`, items whose result is not final or whose flag is
/// raised, and that were last fetched more than `age` ago, get a `reconcile_item` job. The
/// job's unique key keeps replicas that sweep at the same time from doubling the work.
public struct SweepService: Service {
    let items: PostgresItemRepository
    let queue: PostgresJobQueue
    let interval: Duration
    let age: Duration
    let logger: Logger

    public init(items: PostgresItemRepository, queue: PostgresJobQueue, interval: Duration, age: Duration, logger: Logger) {
        self.items = items
        self.queue = queue
        self.interval = interval
        self.age = age
        self.logger = logger
    }

    /// Sweeps at once, then every `interval` until graceful shutdown (a sweep under way finishes).
    public func run() async throws {
        await sweepLoggingFailure()
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous).cancelOnGracefulShutdown() {
            await sweepLoggingFailure()
        }
    }

    private func sweepLoggingFailure() async {
        do {
            _ = try await sweepOnce()
        } catch {
            logger.warning("sweep failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
        }
    }

    /// Enqueues one pass; returns how many jobs were created.
    public func sweepOnce() async throws -> Int {
        let due = try await items.unsettled(olderThan: age, limit: 1000)
        guard !due.isEmpty else { return 0 }
        let created = try await queue.enqueue(due.map { try ReconcileItemJob(entrupyID: $0, source: .sweep).job() })
        if !created.isEmpty { logger.info("sweep queued re-fetches", metadata: ["count": "\(created.count)"]) }
        return created.count
    }
}
