import AsyncAlgorithms
public import Logging
public import RelayModel
import RelayDatabase
public import ServiceLifecycle

/// Notices results that never come (issue 45): every `interval`, items with no final result
/// submitted longer ago than their category's threshold (`OverdueThresholds`) get a
/// `check_overdue` job, which fetches the item and records `result.overdue` only if the answer
/// is still not final. The job's unique key keeps replicas passing at once from doubling it.
public struct OverdueService: Service {
    let store: any OverdueStoring
    let thresholds: OverdueThresholds
    let interval: Duration
    let logger: Logger

    public init(store: any OverdueStoring, thresholds: OverdueThresholds, interval: Duration, logger: Logger) {
        self.store = store
        self.thresholds = thresholds
        self.interval = interval
        self.logger = logger
    }

    /// Passes at once, then every `interval` until graceful shutdown.
    public func run() async throws {
        await passLoggingFailure()
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous).cancelOnGracefulShutdown() {
            await passLoggingFailure()
        }
    }

    private func passLoggingFailure() async {
        do {
            _ = try await passOnce()
        } catch {
            logger.warning("overdue pass failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
        }
    }

    /// Enqueues one pass's checks; returns how many jobs were created.
    public func passOnce() async throws -> Int {
        let due = try await store.overdueCandidates(thresholds, limit: 500)
        guard !due.isEmpty else { return 0 }
        let created = try await store.queueOverdueChecks(due)
        if created > 0 { logger.info("overdue pass queued checks", metadata: ["count": "\(created)"]) }
        return created
    }
}
