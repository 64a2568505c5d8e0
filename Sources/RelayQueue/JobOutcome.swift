/// What a handler decided about a job it ran.
public enum JobOutcome: Sendable, Equatable {
    /// Done; never run again.
    case completed
    /// Not done, not failed: run again after the delay without spending an attempt (rate
    /// limits, or a delivery waiting for its next scheduled attempt).
    case snooze(Duration)
    /// Failed this time: retry after the delay, or with the worker's backoff when nil; `dead`
    /// once the job's attempts are spent.
    case retry(error: String, delay: Duration?)
    /// Failed for good: `dead` now, whatever attempts remain.
    case discard(error: String)
}
