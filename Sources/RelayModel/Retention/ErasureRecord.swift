public import Foundation

/// An erasure that ran, as the record keeps it: never the key or anything erased.
public struct ErasureRecord: Sendable, Equatable {
    public var id: Int64
    public var requestedAt: Date
    public var requestedBy: String
    /// The kind of key it was asked by (`unique_user_id`, `email`, `customer_item_id`).
    public var selector: String
    /// Rows per kind of `ErasureReport.kinds`.
    public var counts: [String: Int]
    /// Whether it found anything stored to erase (a record with zero counts says so).
    public var outcome: ErasureOutcome

    public init(id: Int64, requestedAt: Date, requestedBy: String, selector: String, counts: [String: Int],
                outcome: ErasureOutcome = .erased) {
        self.id = id
        self.requestedAt = requestedAt
        self.requestedBy = requestedBy
        self.selector = selector
        self.counts = counts
        self.outcome = outcome
    }
}
