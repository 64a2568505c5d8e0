import Logging

/// What a handler knows of the run it is in.
public struct JobContext: Sendable {
    public var id: Int64
    /// This run, from 1.
    public var attempt: Int
    public var maxAttempts: Int
    /// Earlier runs whose worker died while running them.
    public var crashes: Int
    /// Carries the job's ID and kind as metadata.
    public var logger: Logger
    /// The worker's lease, and the kinds it has handlers for.
    var lease: JobLease?
    var runnableKinds: Set<String> = []

    public init(id: Int64, attempt: Int, maxAttempts: Int, crashes: Int = 0, logger: Logger,
                lease: JobLease? = nil, runnableKinds: Set<String> = []) {
        self.id = id
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.crashes = crashes
        self.logger = logger
        self.lease = lease
        self.runnableKinds = runnableKinds
    }

    public var isLastAttempt: Bool { attempt >= maxAttempts }

    /// The lease under which this handler may enqueue jobs of `kind` for its own worker to run
    /// next (`JobResult.then`); nil when the worker has no handler for that kind.
    public func lease(forRunning kind: String) -> JobLease? {
        runnableKinds.contains(kind) ? lease : nil
    }
}
