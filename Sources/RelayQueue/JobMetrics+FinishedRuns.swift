import Logging

extension JobMetrics {
    /// Metrics and logs for recorded runs: each run's outcome as recorded (`lost` when its
    /// lease was lost or its record given up), a failed or discarded run's error, and the runs
    /// that will run again because their outcome was not recorded.
    func recordFinished(_ entries: [FinishBatcher.Entry], states: [Int64: JobState], logger: Logger) {
        let now = ContinuousClock.now
        for entry in entries {
            let label: String
            switch (entry.finish.outcome, states[entry.job.id]) {
            case (_, nil): label = "lost"
            case (.completed, _): label = "completed"
            case (.snooze, _): label = "snoozed"
            case (.retry(let error, _), let state?):
                label = state == .dead ? "dead" : "retried"
                logger.warning("job failed", metadata: [
                    "job_id": "\(entry.job.id)", "job_kind": "\(entry.job.kind)", "attempt": "\(entry.job.attempt)",
                    "error": "\(error)", "now": "\(label)"])
            case (.discard(let error), _):
                label = "dead"
                logger.error("job discarded", metadata: ["job_id": "\(entry.job.id)", "job_kind": "\(entry.job.kind)", "error": "\(error)"])
            }
            record(kind: entry.job.kind, outcome: label, duration: now - entry.addedAt)
        }
        let lost = entries.map(\.job.id).filter { states[$0] == nil }
        if !lost.isEmpty {
            logger.warning("finished runs whose outcome was not recorded (their lease was lost, or recording was given up); they run again",
                           metadata: ["job_ids": "\(lost)"])
        }
    }
}
