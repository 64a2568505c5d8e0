import Foundation

/// The REST v1 item (contract section 3), in the fields the simulator keeps.
extension SimItem {
    static let mediaBase = "https://sim.entrupy.invalid"

    var json: SimJSON {
        let display = ResultCatalogue.display(for: result)
        var item: [String: SimJSON] = [
            "entrupy_id": .string(entrupyID),
            "status": .object([
                "result": .object([
                    "id": .string(result), "final": .bool(final),
                    "display": .object(["header": .string(display.header), "message": .string(display.message)]),
                ]),
                "flag": .string(flag),
            ]),
            "properties": .object([
                "brand": .object(["id": .string(brand), "name": .string(Self.displayName(brand))]),
                "model": model.map { .object(["id": .string($0)]) } ?? .null,
            ]),
            "activity": .object(["product_category": .string(category)]),
            "text_fields": .object(["customer_item_id": .string(customerItemID)]),
            "owner": .object(["user": .object(["username": .string(username)])]),
            "timestamp": .object(["epoch": .number(submittedAt)]),
        ]
        if result == "authentic" && final {
            item["certificate"] = .object(["site": .string("\(Self.mediaBase)/certificates/\(entrupyID)")])
        }
        return .object(item)
    }

    /// `louis_vuitton` → `Louis Vuitton`.
    static func displayName(_ id: String) -> String {
        id.replacingOccurrences(of: "_", with: " ").capitalized
    }
}
