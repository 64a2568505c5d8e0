public import Foundation

/// A replica's lease on fetching one item (`item_fetch_leases`), as the reconcile that took it
/// holds it: the commit that stores what the fetch found ends it in the same round trip that
/// waits for the commit to be durable, so a reconcile does not spend one more on its release.
public struct FetchLease: Sendable, Equatable {
    /// The item's key (`ReconcilePipeline.Target.lockKey`).
    public let key: String
    /// Who took it: only its holder's release ends it.
    public let holder: UUID

    public init(key: String, holder: UUID) {
        self.key = key
        self.holder = holder
    }
}
