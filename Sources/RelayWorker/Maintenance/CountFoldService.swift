import AsyncAlgorithms
public import Logging
import Metrics
import RelayModel
import RelayDatabase
public import ServiceLifecycle
import RelayRuntime

/// Every `interval`, folds the item count changes that writes appended into the count rollup
/// (migration 0006), so that counting stays a sum over a few thousand rows however many items
/// arrive. Counts are exact between folds; replicas folding at once take turns in the database.
public struct CountFoldService: Service {
    let items: any CountFolding
    let interval: Duration
    let logger: Logger
    private let duration = MetricHandles.timer(.countFoldDuration)
    private let failures = MetricHandles.counter(.countFoldFailures)

    public init(items: any CountFolding, interval: Duration = .seconds(5), logger: Logger) {
        self.items = items
        self.interval = interval
        self.logger = logger
    }

    /// Folds at once, then every `interval` until graceful shutdown (a fold under way finishes).
    public func run() async throws {
        await fold()
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous).cancelOnGracefulShutdown() {
            await fold()
        }
    }

    private func fold() async {
        let started = ContinuousClock.now
        do {
            let changed = try await items.foldCountChanges()
            duration.record(duration: ContinuousClock.now - started)
            if changed > 0 { logger.debug("folded item count changes", metadata: ["rows": "\(changed)"]) }
        } catch {
            failures.increment()
            logger.warning("folding item counts failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
        }
    }
}
