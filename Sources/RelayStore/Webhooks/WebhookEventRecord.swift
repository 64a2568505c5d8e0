import Foundation
import RelayCore

/// A stored webhook as `events list` and the query API show it (no body, no secrets).
public struct WebhookEventRecord: Sendable, Equatable, Encodable {
    public var id: Int64
    public var eventType: String?
    public var eventID: String?
    public var entrupyID: String?
    public var customerItemID: String?
    public var state: WebhookEventState
    public var duplicates: Int
    public var verifiedBy: String
    public var clientAddress: String?
    public var bodyBytes: Int
    public var receivedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, state, duplicates
        case eventType = "event_type"
        case eventID = "event_id"
        case entrupyID = "entrupy_id"
        case customerItemID = "customer_item_id"
        case verifiedBy = "verified_by"
        case clientAddress = "client_address"
        case bodyBytes = "body_bytes"
        case receivedAt = "received_at"
    }

    /// Absent values are written as `null`, so every key is always present for consumers.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(eventType, forKey: .eventType)
        try container.encode(eventID, forKey: .eventID)
        try container.encode(entrupyID, forKey: .entrupyID)
        try container.encode(customerItemID, forKey: .customerItemID)
        try container.encode(state.rawValue, forKey: .state)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(verifiedBy, forKey: .verifiedBy)
        try container.encode(clientAddress, forKey: .clientAddress)
        try container.encode(bodyBytes, forKey: .bodyBytes)
        try container.encode(receivedAt, forKey: .receivedAt)
    }

    public init(id: Int64, eventType: String?, eventID: String?, entrupyID: String?, customerItemID: String?, state: WebhookEventState,
                duplicates: Int, verifiedBy: String, clientAddress: String?, bodyBytes: Int, receivedAt: Date) {
        self.id = id
        self.eventType = eventType
        self.eventID = eventID
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.state = state
        self.duplicates = duplicates
        self.verifiedBy = verifiedBy
        self.clientAddress = clientAddress
        self.bodyBytes = bodyBytes
        self.receivedAt = receivedAt
    }
}
