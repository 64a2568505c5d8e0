public import RelayModel
import Foundation

/// One line of an item's merged timeline.
public struct APITimelineEvent: Encodable, Sendable {
    let kind: String
    let at: Date
    let summary: String
    @AlwaysPresent var webhookEventID: Int64?
    @AlwaysPresent var deliveryID: Int64?

    enum CodingKeys: String, CodingKey {
        case kind, at, summary, webhookEventID = "webhook_event_id", deliveryID = "delivery_id"
    }

    public init(_ event: TimelineEvent) {
        kind = event.kind
        at = event.at
        summary = event.summary
        webhookEventID = event.webhookEventID
        deliveryID = event.deliveryID
    }
}
