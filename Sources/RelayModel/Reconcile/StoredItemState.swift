public import Foundation

/// What the store holds of an item, as the differ needs it: the compared state, and when
/// the answer it came from was requested (by the database's clock).
public struct StoredItemState: Sendable, Equatable {
    public var snapshot: ItemSnapshot
    public var fetchedAt: Date
    /// The item's submitter was erased: what is fetched for it is stored without people fields.
    public var erased: Bool

    public init(snapshot: ItemSnapshot, fetchedAt: Date, erased: Bool = false) {
        self.snapshot = snapshot
        self.fetchedAt = fetchedAt
        self.erased = erased
    }
}
