import RelayStore
import RelayWorker

/// A job that does nothing: what is measured is the queue's own cost per job.
struct NoopHandler: JobHandler {
    let kind = "noop"
    func run(_ job: ClaimedJob) async throws -> JobOutcome { .completed }
}
