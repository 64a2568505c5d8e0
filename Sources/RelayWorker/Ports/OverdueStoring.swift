public import RelayModel

/// What the overdue pass and its checks need of the store (`PostgresOverdueStore`, wired in
/// RelayApp): the items past their threshold with no final result, their `check_overdue`
/// jobs, and the record of an item found overdue.
public protocol OverdueStoring: Sendable {
    /// Items stored without a final result, submitted longer ago than their category's threshold,
    /// not yet found overdue at it; oldest submission first.
    func overdueCandidates(_ thresholds: OverdueThresholds, limit: Int) async throws -> [OverdueCandidate]
    /// Queues a check of each; returns how many jobs were created (one already queued is not doubled).
    func queueOverdueChecks(_ candidates: [OverdueCandidate]) async throws -> Int
    /// Whether the item's `result.overdue` at `threshold` is already in its timeline.
    func overdueRecorded(entrupyID: String, threshold: String) async throws -> Bool
    /// Notes that the item was found overdue at `threshold` (the pass no longer offers it).
    func markOverdue(entrupyID: String, threshold: String) async throws
}
