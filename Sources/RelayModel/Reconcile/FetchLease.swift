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

extension FetchLease {
    /// The key of an item by its Entrupy ID (`id:E123`) and by its customer item ID
    /// (`cid:SKU-1`): what the worker's `KeyedLock` and `item_fetch_leases` are keyed by. The
    /// pending read that takes the lease builds it in SQL from these.
    public static let entrupyIDPrefix = "id:"
    public static let customerItemIDPrefix = "cid:"
}
