import AsyncAlgorithms
import Logging
import Metrics
import RelayDatabase
import RelayRuntime
import ServiceLifecycle

/// The queue's own bookkeeping, run by every worker each `maintenanceInterval`: rescues
/// expired leases (within a second of their expiry, waking the worker when it made jobs
/// claimable), deletes finished jobs past their ages once a minute, and exports the queue's
/// depth. Finished jobs are the queue's rows, not records: what a job did is kept by the rows
/// it wrote (a webhook's, a delivery's attempts), which retention (`Pruner`) keeps by its own
/// settings; so the queue deletes its own, in short batches, beside the rescue that needs
/// the table small.
struct QueueBookkeeping: Sendable {
    let queue: PostgresJobQueue
    let configuration: JobWorkerConfiguration
    let runs: JobWorkerState
    let wake: WakeSignal
    let logger: Logger
    private let availableGauge = MetricHandles.gauge(.jobsAvailable)
    private let oldestGauge = MetricHandles.gauge(.jobsOldestAvailable)
    private let runningGauge = MetricHandles.gauge(.jobsRunning)
    private let deadGauge = MetricHandles.gauge(.jobsDead)

    func run() async {
        var lastPrune = ContinuousClock.now - .seconds(3600)
        for await _ in AsyncTimerSequence(interval: configuration.maintenanceInterval, clock: .continuous).cancelOnGracefulShutdown() {
            do {
                try await rescueExpiredLeases()
                if ContinuousClock.now - lastPrune > .seconds(60) {
                    try await pruneFinishedJobs()
                    lastPrune = .now
                }
                try await exportDepth()
            } catch {
                // Cancelled: the worker is stopping; a pass cut short is no failure to report.
                guard !Task.isCancelled else { return }
                logger.warning("job maintenance failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            }
        }
    }

    private func rescueExpiredLeases() async throws {
        let rescue = try await queue.rescueExpiredLeases(maxCrashes: configuration.maxCrashes)
        if rescue.retried > 0 {
            runs.withLock { $0.notified = true }
            wake.signal()
        }
        if rescue.dead > 0 {
            logger.error("jobs whose workers kept dying are dead", metadata: ["count": "\(rescue.dead)"])
        }
    }

    private func pruneFinishedJobs() async throws {
        let pruned = try await queue.prune(completedOlderThan: configuration.pruneCompletedAfter, deadOlderThan: configuration.pruneDeadAfter)
        if pruned > 0 { logger.info("pruned finished jobs", metadata: ["count": "\(pruned)"]) }
    }

    private func exportDepth() async throws {
        let stats = try await queue.stats()
        availableGauge.record(stats.available)
        oldestGauge.record(stats.oldestAvailableSeconds)
        runningGauge.record(stats.running)
        deadGauge.record(stats.dead)
    }
}
