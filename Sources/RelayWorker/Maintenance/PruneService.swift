import AsyncAlgorithms
public import Logging
import Metrics
import RelayRuntime
import RelayDatabase
public import ServiceLifecycle

/// Runs a pruning pass (`Pruner`) `interval` after start, then every `interval`, until graceful
/// shutdown (a pass under way stops after its current batch).
public struct PruneService: Service {
    let pruner: Pruner
    let interval: Duration
    let logger: Logger
    private let duration = MetricHandles.timer(.retentionPassDuration)

    public init(pruner: Pruner, interval: Duration, logger: Logger) {
        self.pruner = pruner
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        // Not at once: a fleet restarting together should serve first and prune after, and a
        // rolling upgrade should be over before the first pass (CHANGELOG: older releases
        // cannot read what it removes).
        try? await cancelWhenGracefulShutdown { try await Task.sleep(for: self.interval) }
        guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
        await pass()
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous).cancelOnGracefulShutdown() {
            await pass()
        }
    }

    private func pass() async {
        let started = ContinuousClock.now
        do {
            if try await pruner.pass() != nil { duration.record(duration: ContinuousClock.now - started) }
        } catch is Pruner.Failed {
            // Each failing kind was counted and logged by the pass.
        } catch {
            guard !Task.isCancelled else { return }
            MetricHandles.counter(.retentionFailures, [("kind", "all")]).increment()
            logger.warning("pruning failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
        }
    }
}
