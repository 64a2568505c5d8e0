public import Foundation

/// What a reconcile starts from, read before the item is fetched: the database's clock (when
/// the answer is requested, which orders answers) and what the store held then of the item
/// stored under `entrupyID` (nil: nothing). A basis read with the webhook event saves the
/// pipeline two queries; if the item is stored meanwhile, the commit is refused and the
/// pipeline diffs again against what was stored.
public struct ReconcileBasis: Sendable, Equatable {
    public var observedAt: Date
    public var entrupyID: String?
    public var stored: StoredItemState?

    public init(observedAt: Date, entrupyID: String?, stored: StoredItemState?) {
        self.observedAt = observedAt
        self.entrupyID = entrupyID
        self.stored = stored
    }
}
