import AsyncAlgorithms
public import Logging
import RelayModel
import RelayDatabase
public import ServiceLifecycle

/// Heals missed webhooks: every `interval`, items whose result is not final or whose flag is
/// raised, and that were last fetched more than `age` ago, get a `reconcile_item` job. The
/// job's unique key keeps replicas that sweep at the same time from doubling the work.
public struct SweepService: Service {
    let store: any SweepStoring
    let interval: Duration
    let age: Duration
    let logger: Logger

    public init(store: any SweepStoring, interval: Duration, age: Duration, logger: Logger) {
        self.store = store
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
        let due = try await store.unsettled(olderThan: age, limit: 1000)
        guard !due.isEmpty else { return 0 }
        let created = try await store.queueRefetches(entrupyIDs: due, source: .sweep)
        if created > 0 { logger.info("sweep queued re-fetches", metadata: ["count": "\(created)"]) }
        return created
    }
}
