/// An authentication inside the simulator; `SimItem+JSON` renders it as the REST v1 item.
struct SimItem: Sendable {
    var entrupyID: String
    var customerItemID: String
    var brand: String
    var model: String?
    var category: String
    var username: String
    var result: String
    var final: Bool
    var flag: String
    var submittedAt: Double
    /// Raised by every change; the simulator's own ordering of changes.
    var sequence: Int

    /// The value a search filter key reads.
    func value(forFilter key: String) -> String? {
        switch key {
        case "properties.brand.id": brand
        case "status.result.id": result
        case "status.flag": flag
        case "text_fields.customer_item_id", "text_fields.sku": customerItemID
        case "owner.user.username": username
        case "activity.product_category": category
        default: nil
        }
    }

    static let filterKeys: Set<String> = [
        "properties.brand.id", "status.result.id", "status.flag", "text_fields.customer_item_id", "text_fields.sku",
        "owner.user.username", "activity.product_category",
    ]
}
