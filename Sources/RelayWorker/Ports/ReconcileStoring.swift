public import Foundation
public import RelayModel
public import RelayQueue

/// What the reconcile pipeline needs of the store (`PostgresReconcileStore`, wired in
/// RelayApp): the clock that orders answers, the stored states, the submitter's own ID, and
/// the commit, a compare-and-swap on the state the change was computed against.
public protocol ReconcileStoring: Sendable {
    /// The database's clock: answers are ordered by it.
    func clock() async throws -> Date
    func state(of entrupyID: String) async throws -> StoredItemState?
    func states(of entrupyIDs: [String]) async throws -> [String: StoredItemState]
    /// The organisation's own ID for an Entrupy username, for notifications. May be answered
    /// from memory: a commit whose `change.submitter` the mirror no longer holds is refused
    /// (nil, as for a changed basis), and the next lookup reads the mirror again.
    func uniqueUserID(username: String) async throws -> String?
    /// Stores `change`, or answers nil (writing nothing) when the item is no longer stored as
    /// `change.basedOn` says, or when `change.submitter` is no longer the SDK users mirror's.
    /// Its deliveries' jobs go in under `followUps`, the job's run's follow-up lease
    /// (`JobContext.followUps`): claimed by this worker, which sends them when the handler
    /// returns; with nil (no worker's run) they go in for any worker.
    /// `releasing`: the fetch lease the reconcile holds, ended once the commit is durable
    /// (not when it is refused: the caller diffs again under the same lease).
    func commit(_ change: ReconcileChange, followUps: FollowUpJobs?, releasing lease: FetchLease?) async throws -> ApplyResult?
}
