public import Logging

/// What a handler knows of the run it is in.
public struct JobContext: Sendable {
    public var id: Int64
    /// This run, from 1.
    public var attempt: Int
    public var maxAttempts: Int
    /// Earlier runs whose worker died while running them.
    public var crashes: Int
    /// Carries the job's ID (and, in a worker, its kind) as metadata. Built when asked for:
    /// most runs never log, and setting metadata on every run was a twentieth of a no-op job's
    /// cost.
    public var logger: Logger {
        var logger = baseLogger
        logger[metadataKey: "job_id"] = "\(id)"
        if let kind { logger[metadataKey: "job_kind"] = .string(kind) }
        return logger
    }
    /// The follow-up lease of this run: jobs a statement inserts with it (`JobInsert`) go in
    /// claimed by this worker, which runs them when the handler returns. A handler passes it,
    /// explicitly, to the store call that enqueues jobs; nil outside a worker.
    public let followUps: FollowUpJobs?
    let baseLogger: Logger
    var kind: String?

    public init(id: Int64, attempt: Int, maxAttempts: Int, crashes: Int = 0, followUps: FollowUpJobs? = nil, logger: Logger) {
        self.id = id
        self.followUps = followUps
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.crashes = crashes
        self.baseLogger = logger
    }

    public var isLastAttempt: Bool { attempt >= maxAttempts }
}
