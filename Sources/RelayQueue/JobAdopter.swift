/// What a statement that inserts jobs (`JobInsert`) may insert them already claimed by: a
/// worker that runs them next, with no NOTIFY and no claim. A worker's run's follow-up lease
/// (`FollowUpJobs`, the jobs a handler commits) or the worker's hand-off for callers outside
/// any run in its process (`JobHandoff`, the receiver's reconcile jobs).
public protocol JobAdopter: Sendable {
    /// The lease under which a statement may insert jobs of `kind` now (at most `limit` of
    /// them), or nil: insert them available.
    func lease(forRunning kind: String) -> JobLease?
    /// The jobs a statement inserted under that lease, once it has committed.
    func adopt(_ jobs: [ClaimedJob])
}
