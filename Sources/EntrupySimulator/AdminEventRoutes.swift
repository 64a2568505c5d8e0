import Foundation
import Hummingbird

/// `/_sim/items/:id/support_message` and `/_sim/items/:id/certificate_transfer`: the events
/// that do not change the item itself, sent with the item as it is and what happened beside it;
/// `/_sim/fingerprints`: a fingerprinting session's event, about no authentication.
struct AdminEventRoutes: Sendable {
    let store: SimulatorStore
    let sender: WebhookSender

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("/_sim/items/:entrupy_id/support_message") { request, context in
            try await supportMessage(for: context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
        router.post("/_sim/items/:entrupy_id/certificate_transfer") { request, context in
            try await certificateTransfer(for: context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
        router.post("/_sim/fingerprints") { request, _ in
            try await fingerprint(SimResponse.fields(request))
        }
    }

    /// `{customer_item_id?, mode?}` → `session.completed` for a fingerprinting session (Entrupy
    /// sends it for those too, `activity.name` `fingerprint`, mode `register` or `compare`). No
    /// authentication exists for it: the API answers 404 for its id, as Entrupy's would. Once v1
    /// is retired the customer item ID sits where v2 puts it, `properties.customer_item_id`.
    private func fingerprint(_ fields: InputFields) throws -> Response {
        try fields.requireOnly(["customer_item_id", "mode"])
        let customerItemID = try fields.string("customer_item_id", maxLength: 256)
        let mode = try fields.string("mode", maxLength: 32) ?? "register"
        guard ["register", "compare"].contains(mode) else { throw SimInputError("mode must be register or compare") }
        let sessionID = SimIdentifier.make("fpr")
        let identifiers = store.behaviour.apiVersion.webhooksInV2 ? "properties" : "text_fields"
        let session: SimJSON = .object([
            "entrupy_id": .string(sessionID),
            "activity": .object(["name": .string("fingerprint"), "mode": .string(mode)]),
            identifiers: .object(["customer_item_id": .optional(customerItemID)]),
        ])
        let eventID = sender.send { id in
            WebhookEvent(id: id, type: WebhookEvent.sessionCompleted, entrupyID: sessionID, customerItemID: customerItemID, data: ["item": session])
        }
        return SimResponse.json(.object(["entrupy_id": .string(sessionID), "event_id": .optional(eventID)]), status: .created)
    }

    /// `{text, author?, webhook?}` → `support.message` with `data.message {id, text, author, created_at}`.
    private func supportMessage(for id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["text", "author", "webhook"])
        guard let text = try fields.string("text", maxLength: 10_000) else { throw SimInputError("text is required") }
        let author = try fields.string("author", maxLength: 256) ?? "Entrupy Support"
        let webhook = try fields.bool("webhook") ?? true
        guard let item = store.item(id) else { return SimResponse.error(.notFound, "no item \(id)") }
        let messageID = SimIdentifier.make("msg")
        let message: SimJSON = .object([
            "id": .string(messageID), "text": .string(text), "author": .string(author),
            "created_at": .int(Int64(Date().timeIntervalSince1970.rounded(.down))),
        ])
        let eventID = webhook ? sender.send(WebhookEvent.supportMessage, item: item, extra: ["message": message]) : nil
        return SimResponse.json(.object(["item": item.json, "message": message, "event_id": .optional(eventID)]))
    }

    /// `{status, webhook?}` → `certificate.transfer` with `data.transfer {id, status, certificate,
    /// updated_at}`. One transfer id per item, kept across its status changes. Only an item with
    /// a certificate (authentic and final) can have one: 409 otherwise.
    private func certificateTransfer(for id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["status", "webhook"])
        guard let status = try fields.string("status", maxLength: 64) else { throw SimInputError("status is required") }
        let webhook = try fields.bool("webhook") ?? true
        guard let existing = store.item(id) else { return SimResponse.error(.notFound, "no item \(id)") }
        guard existing.hasCertificate else {
            return SimResponse.error(.conflict, "item \(id) has no certificate (it is not authentic and final)")
        }
        let candidate = SimIdentifier.make("trf")
        guard let item = store.modify(id, { item, _ in if item.transferID == nil { item.transferID = candidate } }),
              let transferID = item.transferID else {
            return SimResponse.error(.notFound, "no item \(id)")
        }
        let transfer: SimJSON = .object([
            "id": .string(transferID), "status": .string(status),
            "certificate": .object(["site": .string("\(item.media)/certificates/\(item.entrupyID)")]),
            "updated_at": .int(Int64(Date().timeIntervalSince1970.rounded(.down))),
        ])
        let eventID = webhook ? sender.send(WebhookEvent.certificateTransfer, item: item, extra: ["transfer": transfer]) : nil
        return SimResponse.json(.object(["item": item.json, "transfer": transfer, "event_id": .optional(eventID)]))
    }
}
