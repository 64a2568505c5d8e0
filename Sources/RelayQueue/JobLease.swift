/// A running worker's hold on jobs: who (`leased_by`) and for how long before the lease
/// runs out unless renewed. A `JobInsert` given a run's follow-up lease (`FollowUpJobs`) inserts its jobs
/// under it, already claimed, and the worker runs them next. If the worker dies first, the
/// lease runs out and any worker's rescue hands them out again, as for any claimed job.
public struct JobLease: Sendable, Equatable {
    public var worker: String
    public var duration: Duration
    /// At most this many jobs are inserted leased (the worker's free slots when it was asked);
    /// any beyond are inserted available, for any worker to claim.
    public var limit: Int

    public init(worker: String, duration: Duration, limit: Int = .max) {
        self.worker = worker
        self.duration = duration
        self.limit = max(0, limit)
    }
}
