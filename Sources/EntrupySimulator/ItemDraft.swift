/// A validated `POST /_sim/items` body: what the caller chose for a new item.
struct ItemDraft: Sendable {
    var customerItemID: String
    var brand: String
    var model: String?
    var category: String
    var username: String
    var result: String
    var final: Bool
    var sendWebhook: Bool

    static let keys: Set<String> = ["customer_item_id", "brand", "model", "category", "username", "result", "final", "webhook"]

    static func parse(_ body: SimJSON, organisation: String) throws(SimInputError) -> ItemDraft {
        let fields = try InputFields(body)
        try fields.requireOnly(keys)
        guard let customerItemID = try fields.text("customer_item_id") else { throw SimInputError("customer_item_id is required") }
        let result = try fields.string("result", maxLength: 64) ?? "needs_review"
        return ItemDraft(
            customerItemID: customerItemID,
            brand: try fields.string("brand", maxLength: 64) ?? "nike",
            model: try fields.string("model", maxLength: 128),
            category: try fields.string("category", maxLength: 64) ?? "sneakers",
            username: try fields.string("username", maxLength: 150) ?? organisation + "-user",
            result: result,
            final: try fields.bool("final") ?? ResultCatalogue.isFinalWhenUnstated(result),
            sendWebhook: try fields.bool("webhook") ?? true
        )
    }
}
