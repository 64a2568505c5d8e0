public import Foundation

/// A `support.message` or `certificate.transfer` event about an item, as its timeline says it.
public struct ItemNote: Sendable, Equatable {
    /// The event type.
    public var kind: String
    public var at: Date
    public var text: String
    public var webhookEventID: Int64

    public init(kind: String, at: Date, text: String, webhookEventID: Int64) {
        self.kind = kind
        self.at = at
        self.text = text
        self.webhookEventID = webhookEventID
    }
}
