public import RelayModel
import Foundation

/// A stored webhook's metadata (never its body).
public struct APIWebhookEvent: Encodable, Sendable {
    let id: Int64
    @AlwaysPresent var eventType: String?
    @AlwaysPresent var eventID: String?
    @AlwaysPresent var entrupyID: String?
    @AlwaysPresent var customerItemID: String?
    let state: String
    let duplicates: Int
    let verifiedBy: String
    @AlwaysPresent var clientAddress: String?
    @AlwaysPresent var bodyBytes: Int?
    /// `expired` or `erased` once the body is gone (the row stays).
    @AlwaysPresent var bodyRemoved: String?
    let receivedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, eventType = "event_type", eventID = "event_id", entrupyID = "entrupy_id", customerItemID = "customer_item_id"
        case state, duplicates, verifiedBy = "verified_by", clientAddress = "client_address", bodyBytes = "body_bytes"
        case bodyRemoved = "body_removed"
        case receivedAt = "received_at"
    }

    public init(_ event: WebhookEventRecord) {
        id = event.id
        eventType = event.eventType
        eventID = event.eventID
        entrupyID = event.entrupyID
        customerItemID = event.customerItemID
        state = event.state.rawValue
        duplicates = event.duplicates
        verifiedBy = event.verifiedBy
        clientAddress = event.clientAddress
        bodyBytes = event.bodyBytes
        bodyRemoved = event.bodyRemoved
        receivedAt = event.receivedAt
    }
}
