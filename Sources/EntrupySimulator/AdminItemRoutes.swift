import Hummingbird

/// `/_sim/items...`: how tests and people make items and change their result and flag, each
/// change sending its event unless `"webhook": false`.
struct AdminItemRoutes: Sendable {
    let store: SimulatorStore
    let sender: WebhookSender

    static let flags: Set<String> = ["none", "flagged", "resolved"]

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post("/_sim/items") { request, _ in
            let draft = try ItemDraft.parse(try await SimResponse.body(request), organisation: store.organisation)
            let item = store.create(draft)
            let eventID = draft.sendWebhook ? sender.send(WebhookEvent.sessionCompleted, item: item) : nil
            return SimResponse.json(.object([
                "entrupy_id": .string(item.entrupyID), "item": item.json, "event_id": .optional(eventID),
            ]), status: .created)
        }
        router.post("/_sim/items/:entrupy_id/result") { request, context in
            try await setResult(of: context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
        router.post("/_sim/items/:entrupy_id/flag") { request, context in
            try await setFlag(of: context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
    }

    /// `{result, final?, webhook?}`; without `final`, the contract's rule.
    private func setResult(of id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["result", "final", "webhook"])
        guard let result = try fields.string("result", maxLength: 64) else { throw SimInputError("result is required") }
        let final = try fields.bool("final") ?? ResultCatalogue.isFinalWhenUnstated(result)
        let webhook = try fields.bool("webhook") ?? true
        guard let item = store.modify(id, { item in
            item.result = result
            item.final = final
        }) else {
            return SimResponse.error(.notFound, "no item \(id)")
        }
        let eventID = webhook ? sender.send(WebhookEvent.sessionCompleted, item: item) : nil
        return SimResponse.json(.object(["item": item.json, "event_id": .optional(eventID)]))
    }

    /// `{flag: none|flagged|resolved, webhook?}`. Any state may follow any other: the admin plays
    /// both the user and Entrupy's support.
    private func setFlag(of id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["flag", "webhook"])
        guard let flag = try fields.string("flag", maxLength: 16), Self.flags.contains(flag) else {
            throw SimInputError("flag must be none, flagged or resolved")
        }
        let webhook = try fields.bool("webhook") ?? true
        guard let item = store.modify(id, { $0.flag = flag }) else {
            return SimResponse.error(.notFound, "no item \(id)")
        }
        let eventID = webhook ? sender.send(WebhookEvent.authenticationChanged, item: item) : nil
        return SimResponse.json(.object(["item": item.json, "event_id": .optional(eventID)]))
    }
}
