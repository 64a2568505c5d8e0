import Foundation
import RelayCore

/// An authentication inside the simulator, rendered as the REST v1 item.
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
    var sequence: Int

    static let headers = [
        "authentic": ("Authentic", "This item was found to be authentic."),
        "unknown": ("Unidentified", "The item could not be identified."),
        "not_supported": ("Not supported", "This item type is not supported."),
        "needs_review": ("Under Review", "Our experts are reviewing this item."),
        "invalid": ("Invalid", "The submission was invalid."),
    ]

    var json: JSONValue {
        let display = Self.headers[result] ?? (result, "")
        var item: [String: JSONValue] = [
            "entrupy_id": .string(entrupyID),
            "status": .object([
                "result": .object([
                    "id": .string(result), "final": .bool(final),
                    "display": .object(["header": .string(display.0), "message": .string(display.1)]),
                ]),
                "flag": .string(flag),
            ]),
            "properties": .object([
                "brand": .object(["id": .string(brand), "name": .string(brand.replacingOccurrences(of: "_", with: " ").capitalized)]),
                "model": model.map { .object(["id": .string($0)]) } ?? .null,
            ]),
            "activity": .object(["product_category": .string(category)]),
            "text_fields": .object(["customer_item_id": .string(customerItemID)]),
            "owner": .object(["user": .object(["username": .string(username)])]),
            "timestamp": .object(["epoch": .number(JSONNumber(submittedAt))]),
        ]
        if result == "authentic" && final {
            item["certificate"] = .object(["site": .string("https://sim.entrupy.invalid/certificates/\(entrupyID)")])
        }
        return .object(item)
    }

    /// The value a search filter key reads.
    func value(for key: String) -> String? {
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
