public import Foundation
public import RelayModel

/// What the pruner needs of the store (`PostgresRetentionStore`, wired in RelayApp): the lock
/// that keeps passes to one replica, the database's clock, and per kind of row a batch
/// pruned, an estimate, and the oldest row left.
public protocol RetentionStoring: Sendable {
    /// Prunes up to `limit` rows of `kind` older than `cutoff`; answers how many went and, when
    /// `measuringWAL`, the bytes of write-ahead log written meanwhile (nil when not measured,
    /// or when the server will not tell).
    func pruneBatch(_ kind: RetentionKind, before cutoff: Date, limit: Int, measuringWAL: Bool) async throws -> (rows: Int, walBytes: Int64?)
    /// What pruning `kind` at `cutoff` would remove now; with `notBefore`, only rows made since then.
    func estimate(_ kind: RetentionKind, before cutoff: Date, notBefore: Date?) async throws -> RetentionEstimate
    /// When the oldest row still holding what `kind` removes was made (nil: none).
    func oldest(_ kind: RetentionKind) async throws -> Date?
    /// The database's clock (cutoffs are counted from it, as every stored time was).
    func now() async throws -> Date
    /// Runs `body` while holding the pruning lock; nil without running it when another replica holds it.
    func whileHoldingLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T?
}
