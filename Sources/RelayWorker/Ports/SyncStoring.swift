public import Foundation
public import RelayModel

/// What the sync by search needs of the store (`PostgresSyncStore`, wired in RelayApp): the
/// lock that keeps passes to one replica, the pass under way with its checkpoints, and what
/// the relay holds of a window.
public protocol SyncStoring: Sendable {
    /// Runs `body` while holding the sync lock; nil without running it when another replica holds it.
    func whileHoldingLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T?
    /// The pass under way, or a new one over the widest tier of `tiers` that is due; nil when
    /// no tier is due.
    func resumeOrStart(tiers: SyncTiers, lookback: Duration) async throws -> SyncPass?
    /// Since when items the sync creates are news rather than history: the first pass's start.
    func notifySince() async throws -> Date
    /// Items the relay holds submitted in `since ..< until`, counted up to `atMost`.
    func itemsSubmitted(since: Date, until: Date, atMost: Int) async throws -> Int
    /// Saves progress after a page: the cursor to continue from and what the page counted.
    func checkpoint(cursor: JSONValue?, items: Int, changes: Int) async throws
    /// Ends the pass under way; the tiers it walked (`covering`) completed when it started.
    func finish(covering tiers: [String]) async throws
    /// Notes why a pass stopped; it resumes from its last checkpoint next time.
    func noteError(_ message: String) async throws
    /// Forgets the pass under way (its cursor was refused): the next run starts a new one.
    func abandon() async throws
    func status() async throws -> SyncStatus
}
