/// What a handler returns: the job's outcome, and optionally a write to commit with it.
public struct JobResult: Sendable {
    public var outcome: JobOutcome
    public var record: (any JobRecordWrite)?
    /// Jobs the handler enqueued already leased to this worker (`JobContext.lease(forRunning:)`),
    /// which the worker runs next, as if it had just claimed them.
    public var then: [ClaimedJob]

    public init(_ outcome: JobOutcome, recording record: (any JobRecordWrite)? = nil, then: [ClaimedJob] = []) {
        self.outcome = outcome
        self.record = record
        self.then = then
    }

    public static let completed = JobResult(.completed)

    public static func snooze(_ delay: Duration) -> JobResult { JobResult(.snooze(delay)) }

    public static func retry(error: String, delay: Duration? = nil) -> JobResult { JobResult(.retry(error: error, delay: delay)) }

    public static func discard(error: String) -> JobResult { JobResult(.discard(error: error)) }
}
