import Hummingbird

/// `/_sim/items...`: how tests and people make items and change their result and flag, each
/// change sending its event unless `"webhook": false`; and the ground truth, every item as it
/// is now whether or not the API shows it yet.
struct AdminItemRoutes: Sendable {
    let store: SimulatorStore
    let sender: WebhookSender

    /// v1.4's three, and v2's `reviewed_ok` (its reference shows the flag as such a string).
    static let flags: Set<String> = ["none", "flagged", "resolved", "reviewed_ok"]

    /// A flag the admin may set: one of `flags`, or any other lower-case identifier
    /// (`[a-z][a-z0-9_]*`, at most 64), so a value Entrupy adds tomorrow can be played today.
    static func isSettableFlag(_ flag: String) -> Bool {
        if flags.contains(flag) { return true }
        guard let first = flag.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), flag.utf8.count <= 64 else {
            return false
        }
        return flag.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/_sim/items") { _, _ in
            SimResponse.json(.object(["items": .array(store.allItems().map(\.json))]))
        }
        // The ground truth in brief, `[entrupy_id, result, final, flag]` each: what a benchmark
        // compares 200,000 items by, without 300 MB of items.
        router.get("/_sim/states") { _, _ in
            SimResponse.json(.object(["states": .array(store.allItems().map { item in
                .array([.string(item.entrupyID), .string(item.result), .bool(item.final), .string(item.flag)])
            })]))
        }
        router.post("/_sim/items") { request, _ in
            let draft = try ItemDraft.parse(try await SimResponse.body(request), organisation: store.organisation)
            let item = store.create(draft)
            let eventID = draft.sendWebhook ? sender.send(WebhookEvent.sessionCompleted, item: item) : nil
            return SimResponse.json(.object([
                "entrupy_id": .string(item.entrupyID), "item": item.json, "event_id": .optional(eventID),
            ]), status: .created)
        }
        // `{count, days, prefix?}`: an organisation's history, final items submitted evenly over
        // the last `days`, no webhooks (the sync's benchmark holds 200,000 of them).
        router.post("/_sim/history") { request, _ in
            let fields = try await SimResponse.fields(request)
            try fields.requireOnly(["count", "days", "prefix"])
            guard let count = try fields.integer("count", in: 1...2_000_000), let days = try fields.number("days", in: 0.001...3_650) else {
                throw SimInputError("count (1 to 2,000,000) and days are required")
            }
            let made = store.createHistory(count: Int(count), days: days, prefix: try fields.string("prefix", maxLength: 64) ?? "history-")
            return SimResponse.json(.object(["created": .number(made)]), status: .created)
        }
        router.post("/_sim/items/:entrupy_id/result") { request, context in
            try await setResult(of: context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
        router.post("/_sim/items/:entrupy_id/flag") { request, context in
            try await setFlag(of: context.parameters.require("entrupy_id"), SimResponse.fields(request))
        }
    }

    /// `{result, final?, result_reason?, reasons?, retake_reasons?, customer_state?, webhook?}`;
    /// without `final`, the contract's rule. `retake_reasons` (strings) and `customer_state` are
    /// what a `data_required` result carries (`batch_request.retake_reasons`, `customer_state`).
    private func setResult(of id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["result", "final", "result_reason", "reasons", "retake_reasons", "customer_state", "webhook"])
        guard let result = try fields.string("result", maxLength: 64) else { throw SimInputError("result is required") }
        let final = try fields.bool("final") ?? ResultCatalogue.isFinalWhenUnstated(result)
        let reason = try fields.string("result_reason", maxLength: 4096)
        let reasons = try ResultReason.parseList(fields.array("reasons", maxCount: 20) ?? [])
        let retake = try (fields.array("retake_reasons", maxCount: 20) ?? []).map { value throws(SimInputError) in
            guard case .string(let text) = value, !text.isEmpty, text.count <= 500 else { throw SimInputError("retake_reasons are strings of 1 to 500 characters") }
            return text
        }
        let customerState = try fields.string("customer_state", maxLength: 64)
        let webhook = try fields.bool("webhook") ?? true
        guard let item = store.modify(id, { item, now in
            item.setResult(result, final: final, reason: reason, reasons: reasons, at: now)
            item.retakeReasons = retake
            item.customerState = customerState
        }) else {
            return SimResponse.error(.notFound, "no item \(id)")
        }
        let eventID = webhook ? sender.send(WebhookEvent.sessionCompleted, item: item) : nil
        return SimResponse.json(.object(["item": item.json, "event_id": .optional(eventID)]))
    }

    /// `{flag: none|flagged|resolved|reviewed_ok|<other lower-case id>, flag_info?: {id, label, message},
    /// is_flaggable?, webhook?}`. Any state may follow any other: the admin plays both the user and
    /// Entrupy's support. The flag is stored as given (v2 renders `none` as null, the rest as is).
    private func setFlag(of id: String, _ fields: InputFields) throws -> Response {
        try fields.requireOnly(["flag", "flag_info", "is_flaggable", "webhook"])
        guard let flag = try fields.string("flag", maxLength: 64), Self.isSettableFlag(flag) else {
            throw SimInputError("flag must be none, flagged, resolved, reviewed_ok or another lower-case identifier ([a-z][a-z0-9_]*)")
        }
        let info = try fields.object("flag_info").map { fields throws(SimInputError) in try FlagInfo.parse(fields) }
        let isFlaggable = try fields.bool("is_flaggable")
        let webhook = try fields.bool("webhook") ?? true
        guard let item = store.modify(id, { item, now in item.setFlag(flag, info: info, isFlaggable: isFlaggable, at: now) }) else {
            return SimResponse.error(.notFound, "no item \(id)")
        }
        let eventID = webhook ? sender.send(WebhookEvent.authenticationChanged, item: item) : nil
        return SimResponse.json(.object(["item": item.json, "event_id": .optional(eventID)]))
    }
}
