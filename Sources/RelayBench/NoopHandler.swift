import RelayQueue

/// The arguments of a job that does nothing.
struct NoopJob: JobArgs {
    static let kind = "noop"
}

/// A job that does nothing: what is measured is the queue's own cost per job.
struct NoopHandler: JobHandler {
    func run(_ args: NoopJob, context: JobContext) async throws -> JobResult { .completed }
}
