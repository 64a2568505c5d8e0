import Foundation

/// One event as Entrupy would send it: a fresh `evt_` id, the type, when it was created, the
/// identifiers a receiver looks for first, and under `data` the item as it is now (v1.4 shape,
/// or v2's once v1 is retired: `data.item.entrupy_id` and `data.item.properties.customer_item_id`)
/// plus what the event is about (`message`, `transfer`). The body is rendered once, so every
/// copy and retry of the event carries the same bytes and signature.
struct WebhookEvent: Sendable {
    let id: String
    let type: String
    let body: [UInt8]

    /// - Parameter v2: the item in the v2 shape instead of v1.4's.
    init(id: String, type: String, item: SimItem, extra: [String: SimJSON], v2: Bool = false, created: Date = Date()) {
        var data = extra
        data["item"] = v2 ? item.jsonV2 : item.json
        self.init(id: id, type: type, entrupyID: item.entrupyID, customerItemID: item.customerItemID, data: data, created: created)
    }

    /// An event about a session that is no authentication the API serves (a fingerprinting one).
    init(id: String, type: String, entrupyID: String, customerItemID: String?, data: [String: SimJSON], created: Date = Date()) {
        let payload: SimJSON = .object([
            "id": .string(id),
            "event": .string(type),
            "created": .int(Int64(created.timeIntervalSince1970.rounded(.down))),
            "entrupy_id": .string(entrupyID),
            "customer_item_id": .optional(customerItemID),
            "data": .object(data),
        ])
        self.id = id
        self.type = type
        body = payload.bytes
    }

    /// Event types this simulator sends (contract section 1).
    static let sessionCompleted = "session.completed"
    static let authenticationChanged = "authentication.changed"
    static let supportMessage = "support.message"
    static let certificateTransfer = "certificate.transfer"
}
