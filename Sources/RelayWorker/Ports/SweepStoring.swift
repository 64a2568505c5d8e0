public import RelayModel

/// What the sweep needs of the store (`PostgresItemStore`, wired in RelayApp): the items
/// due for a re-fetch, and their `reconcile_item` jobs.
public protocol SweepStoring: Sendable {
    /// Items not settled (result not final, or flagged) whose last fetch is older than `age`.
    func unsettled(olderThan age: Duration, limit: Int) async throws -> [String]
    /// Queues a re-fetch of each item; returns how many jobs were created (one already
    /// queued for an item is not doubled).
    func queueRefetches(entrupyIDs: [String], source: ReconcileSource) async throws -> Int
}
