/// A validated `POST /_sim/items` body: what the caller chose for a new item. The store adds
/// what the simulator decides (id, times, and the variant when the caller left it open).
struct ItemDraft: Sendable {
    var customerItemID: String
    var orderID: String?
    var styleCode: String?
    var size: String?
    var upc: String?
    var serial: String?
    var brand: String
    var model: String?
    var category: String
    var formFactor: String
    var username: String
    var result: String
    var final: Bool
    var resultReason: String?
    var reasons: [ResultReason]
    var photos: Int
    var flagStyle: ItemVariant.FlagStyle?
    var omitFinal: Bool?
    var sendWebhook: Bool

    static let keys: Set<String> = [
        "customer_item_id", "order_id", "style_code", "size", "upc", "serial", "brand", "model", "category", "form_factor",
        "username", "result", "final", "result_reason", "reasons", "photos", "flag_style", "omit_final", "webhook",
    ]

    static func parse(_ body: SimJSON, organisation: String) throws(SimInputError) -> ItemDraft {
        let fields = try InputFields(body)
        try fields.requireOnly(keys)
        guard let customerItemID = try fields.text("customer_item_id") else { throw SimInputError("customer_item_id is required") }
        let category = try fields.string("category", maxLength: 64) ?? "sneakers"
        let result = try fields.string("result", maxLength: 64) ?? "needs_review"
        let final = try fields.bool("final") ?? ResultCatalogue.isFinalWhenUnstated(result)
        let omitFinal = try fields.bool("omit_final")
        if omitFinal == true, final != ResultCatalogue.isFinalWhenUnstated(result) {
            throw SimInputError("omit_final needs final to be what \(result) implies (\(!final)): a reader could not tell otherwise")
        }
        var flagStyle: ItemVariant.FlagStyle?
        if let style = try fields.string("flag_style", maxLength: 16) {
            guard let known = ItemVariant.FlagStyle(rawValue: style) else { throw SimInputError("flag_style must be string, object or null") }
            flagStyle = known
        }
        return ItemDraft(
            customerItemID: customerItemID,
            orderID: try fields.text("order_id"),
            styleCode: try fields.text("style_code", maxLength: 64),
            size: try fields.text("size", maxLength: 32),
            upc: try fields.text("upc", maxLength: 64),
            serial: try fields.text("serial", maxLength: 64),
            brand: try fields.string("brand", maxLength: 64) ?? "nike",
            model: try fields.string("model", maxLength: 128),
            category: category,
            formFactor: try fields.string("form_factor", maxLength: 64) ?? Self.formFactor(for: category),
            username: try fields.string("username", maxLength: 150) ?? organisation + "-user",
            result: result,
            final: final,
            resultReason: try fields.string("result_reason", maxLength: 4096),
            reasons: try ResultReason.parseList(fields.array("reasons", maxCount: 20) ?? []),
            photos: Int(try fields.integer("photos", in: 0...20) ?? 2),
            flagStyle: flagStyle,
            omitFinal: omitFinal,
            sendWebhook: try fields.bool("webhook") ?? true
        )
    }

    /// The form factor a category's sessions usually have (`activity.form_factor`).
    static func formFactor(for category: String) -> String {
        switch category {
        case "luxury": "handbag"
        case "sneakers": "sneakers"
        case "apparel": "apparel"
        default: category
        }
    }
}
