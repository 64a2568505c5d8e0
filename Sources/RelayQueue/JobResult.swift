/// What a handler returns: the job's outcome, and optionally a write to commit with it.
public struct JobResult: Sendable {
    public var outcome: JobOutcome
    public var record: (any JobRecordWrite)?

    public init(_ outcome: JobOutcome, recording record: (any JobRecordWrite)? = nil) {
        self.outcome = outcome
        self.record = record
    }

    public static let completed = JobResult(.completed)

    public static func snooze(_ delay: Duration) -> JobResult { JobResult(.snooze(delay)) }

    public static func retry(error: String, delay: Duration? = nil) -> JobResult { JobResult(.retry(error: error, delay: delay)) }

    public static func discard(error: String) -> JobResult { JobResult(.discard(error: error)) }
}
