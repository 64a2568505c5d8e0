/// A running worker's hold on jobs: who (`leased_by`) and for how long before the lease
/// runs out unless renewed. A handler that enqueues jobs with it, inside its own transaction
/// (`PostgresJobQueue.enqueueText`'s lease parameters), gets them back already claimed, and
/// hands them to its worker to run next (`JobResult.then`): no NOTIFY, no claim, no wait for
/// one. If the worker dies first, the lease runs out and any worker's rescue hands them out
/// again, as for any claimed job.
public struct JobLease: Sendable, Equatable {
    public var worker: String
    public var duration: Duration

    public init(worker: String, duration: Duration) {
        self.worker = worker
        self.duration = duration
    }
}
