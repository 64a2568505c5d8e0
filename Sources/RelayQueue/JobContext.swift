import Logging

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
    let baseLogger: Logger
    var kind: String?
    /// The worker's lease, the kinds it has handlers for, and how many more jobs it may run
    /// beside its others (this run's own slot included).
    var lease: JobLease?
    var runnableKinds: Set<String> = []
    var freeSlots: @Sendable () -> Int = { .max }

    public init(id: Int64, attempt: Int, maxAttempts: Int, crashes: Int = 0, logger: Logger,
                lease: JobLease? = nil, runnableKinds: Set<String> = [], freeSlots: @escaping @Sendable () -> Int = { .max }) {
        self.id = id
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.crashes = crashes
        self.baseLogger = logger
        self.lease = lease
        self.runnableKinds = runnableKinds
        self.freeSlots = freeSlots
    }

    public var isLastAttempt: Bool { attempt >= maxAttempts }

    /// The lease under which this handler may enqueue jobs of `kind` for its own worker to run
    /// next (`JobResult.then`), limited to the worker's free slots so it never runs more than
    /// its concurrency; nil when the worker has no handler for that kind or no slot free.
    public func lease(forRunning kind: String) -> JobLease? {
        guard runnableKinds.contains(kind), var lease else { return nil }
        lease.limit = min(lease.limit, freeSlots())
        return lease.limit > 0 ? lease : nil
    }
}
