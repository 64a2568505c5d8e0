public import RelayModel
import Foundation

/// One transition in an item's history.
public struct APITransition: Encodable, Sendable {
    let kind: String
    let at: Date
    @AlwaysPresent var from: String?
    @AlwaysPresent var to: String?
    let source: String
    @AlwaysPresent var webhookEventID: Int64?

    enum CodingKeys: String, CodingKey {
        case kind, at, from, to, source, webhookEventID = "webhook_event_id"
    }

    public init(_ entry: TransitionEntry) {
        kind = entry.kind
        at = entry.at
        from = entry.from
        to = entry.to
        source = entry.source
        webhookEventID = entry.webhookEventID
    }
}
