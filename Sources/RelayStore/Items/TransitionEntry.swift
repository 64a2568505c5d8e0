import Foundation

/// One transition in an item's timeline.
public struct TransitionEntry: Sendable, Equatable {
    public var kind: String
    public var at: Date
    public var from: String?
    public var to: String?
    public var source: String
    public var webhookEventID: Int64?
}
