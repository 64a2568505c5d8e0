import Foundation

/// One transition in an item's timeline.
public struct TransitionEntry: Sendable, Encodable, Equatable {
    public var kind: String
    public var at: Date
    public var from: String?
    public var to: String?
    public var source: String
    public var webhookEventID: Int64?

    enum CodingKeys: String, CodingKey {
        case kind, at, from, to, source
        case webhookEventID = "webhook_event_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(at, forKey: .at)
        try c.encode(from, forKey: .from)
        try c.encode(to, forKey: .to)
        try c.encode(source, forKey: .source)
        try c.encode(webhookEventID, forKey: .webhookEventID)
    }
}
