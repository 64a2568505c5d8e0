/// What a handler decided about a job it ran.
public enum JobOutcome: Sendable, Equatable {
    /// Done; never run again.
    case completed
    /// Not done, not failed: run again after `delay` without spending an attempt (rate limits).
    case snooze(Duration)
    /// Failed this time: retry after `delay`, or with the queue's backoff when nil.
    case retry(error: String, delay: Duration?)
    /// Failed for good: go to `dead` now, whatever attempts remain.
    case discard(error: String)
}
