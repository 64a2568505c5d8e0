public import Foundation

/// One transition in an item's timeline.
public struct TransitionEntry: Sendable, Equatable {
    public var kind: String
    public var at: Date
    public var from: String?
    public var to: String?
    public var source: String
    public var webhookEventID: Int64?

    public init(kind: String, at: Date, from: String? = nil, to: String? = nil, source: String, webhookEventID: Int64? = nil) {
        self.kind = kind
        self.at = at
        self.from = from
        self.to = to
        self.source = source
        self.webhookEventID = webhookEventID
    }
}
