import Foundation

/// One event: a fresh `evt_` id, the type, when it was created, and the identifiers a receiver
/// looks up the item by. The body is rendered once, so every copy and retry of the event
/// carries the same bytes and signature.
struct WebhookEvent: Sendable {
    let id: String
    let type: String
    let body: [UInt8]

    init(id: String, type: String, item: SimItem, created: Date = Date()) {
        let payload: SimJSON = .object([
            "id": .string(id),
            "event": .string(type),
            "created": .int(Int64(created.timeIntervalSince1970.rounded(.down))),
            "entrupy_id": .string(item.entrupyID),
            "customer_item_id": .string(item.customerItemID),
        ])
        self.id = id
        self.type = type
        body = payload.bytes
    }

    /// Event types this simulator sends (contract section 1).
    static let sessionCompleted = "session.completed"
    static let authenticationChanged = "authentication.changed"
}
