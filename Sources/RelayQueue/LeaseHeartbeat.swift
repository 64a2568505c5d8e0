import AsyncAlgorithms
import Logging
import RelayDatabase

/// Renews every lease a worker holds in one statement, each third of the lease, until
/// cancelled (after the worker's last run is recorded). A lease is reported lost only when it
/// was held a whole interval before the renewal began: a claim's rows (and a handler's leased
/// jobs) reach the worker at CommandComplete, before their implicit commit, and a renewal
/// whose snapshot predates that commit does not see them as running yet. Their leases are
/// new; the next renewal keeps them.
struct LeaseHeartbeat: Sendable {
    let queue: PostgresJobQueue
    let worker: String
    let lease: Duration
    let runs: JobWorkerState
    let logger: Logger

    func run() async {
        let interval = lease / 3
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous) {
            let started = ContinuousClock.now
            let ids = runs.withLock { Array($0.held.keys) }
            guard !ids.isEmpty else { continue }
            do {
                let kept = try await queue.heartbeat(ids: ids, worker: worker, lease: lease)
                let lost = runs.withLock { runs in
                    ids.filter { id in
                        guard !kept.contains(id), let held = runs.held[id], !held.recording else { return false }
                        return started - held.since >= interval
                    }
                }
                if !lost.isEmpty {
                    logger.warning("lost the lease on running jobs", metadata: ["job_ids": "\(lost)"])
                }
            } catch {
                // Cancelled: the worker is stopping, after every run was recorded (no lease to keep).
                guard !Task.isCancelled else { return }
                logger.warning("renewing leases failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            }
        }
    }
}
