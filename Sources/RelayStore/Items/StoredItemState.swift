import Foundation
import RelayCore

/// What the store holds of an item, as the differ needs it: the compared state, and when
/// the answer it came from was requested (by the database's clock).
public struct StoredItemState: Sendable, Equatable {
    public var snapshot: ItemSnapshot
    public var fetchedAt: Date

    public init(snapshot: ItemSnapshot, fetchedAt: Date) {
        self.snapshot = snapshot
        self.fetchedAt = fetchedAt
    }
}
