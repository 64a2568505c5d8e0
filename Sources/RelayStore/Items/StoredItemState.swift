public import Foundation
public import RelayCore

/// What the store holds of an item, as the differ needs it: the compared state, and when
/// the answer it came from was requested (by the database's clock).
public struct StoredItemState: Sendable, Equatable {
    public var snapshot: ItemSnapshot
    public var fetchedAt: Date

    public init(snapshot: ItemSnapshot, fetchedAt: Date) {
        self.snapshot = snapshot
        self.fetchedAt = fetchedAt
    }

    /// From the `items` columns every read of it selects: result, result_final, flag, fetched_at.
    init(result: String?, resultFinal: Bool, flag: String, fetchedAt: Date) {
        self.init(snapshot: ItemSnapshot(result: result, resultFinal: resultFinal, flag: flag), fetchedAt: fetchedAt)
    }
}
