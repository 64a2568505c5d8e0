public import Foundation

/// One fetch of an item that reached the store: why, and what it changed
/// (`created`, `changed`, `unchanged`, or `stale` when a newer answer was already stored).
public struct Reconciliation: Sendable, Equatable {
    public var at: Date
    public var source: String
    public var outcome: String
    public var transitions: Int
    public var webhookEventID: Int64?
    /// Anything else worth saying (data that had to be cleaned to be stored).
    public var note: String? = nil

    public init(at: Date, source: String, outcome: String, transitions: Int, webhookEventID: Int64? = nil, note: String? = nil) {
        self.at = at
        self.source = source
        self.outcome = outcome
        self.transitions = transitions
        self.webhookEventID = webhookEventID
        self.note = note
    }
}
