import Foundation

/// One fetch of an item that reached the store: why, and what it changed
/// (`created`, `changed`, `unchanged`, or `stale` when a newer answer was already stored).
public struct Reconciliation: Sendable, Encodable, Equatable {
    public var at: Date
    public var source: String
    public var outcome: String
    public var transitions: Int
    public var webhookEventID: Int64?

    enum CodingKeys: String, CodingKey {
        case at, source, outcome, transitions
        case webhookEventID = "webhook_event_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(at, forKey: .at)
        try c.encode(source, forKey: .source)
        try c.encode(outcome, forKey: .outcome)
        try c.encode(transitions, forKey: .transitions)
        try c.encode(webhookEventID, forKey: .webhookEventID)
    }
}
