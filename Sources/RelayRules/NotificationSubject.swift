import Foundation
import RelayCore

/// What a rule is evaluated against and a template renders: the item as it is now, and the
/// transition that just landed in its timeline.
public struct NotificationSubject: Sendable, Equatable {
    public var entrupyID: String
    public var customerItemID: String?
    public var result: String?
    public var resultFinal: Bool
    public var flag: String
    public var brand: String?
    public var model: String?
    public var category: String?
    public var username: String?
    public var certificateURL: String?
    public var transition: Transition
    public var occurredAt: Date

    public init(item: EntrupyItem, transition: Transition, occurredAt: Date) {
        entrupyID = item.entrupyID
        customerItemID = item.customerItemID
        result = item.result
        resultFinal = item.resultFinal
        flag = item.flag
        brand = item.brand
        model = item.model
        category = item.category
        username = item.username
        certificateURL = item.certificateURL
        self.transition = transition
        self.occurredAt = occurredAt
    }

    /// The names templates may use; `rules check` rejects any other.
    public static let variableNames: Set<String> = [
        "entrupy_id", "customer_item_id", "result", "result_final", "flag", "brand", "model", "category",
        "username", "certificate_url", "transition", "from", "to", "occurred_at",
    ]

    public var occurredAtText: String { ISODate.text(occurredAt) }

    /// Template values: absent fields are left out, so `{{#brand}}...{{/brand}}` can test them.
    public var templateValues: [String: String] {
        var values: [String: String] = [
            "entrupy_id": entrupyID, "result_final": resultFinal ? "true" : "false", "flag": flag,
            "transition": transition.kind.rawValue, "occurred_at": occurredAtText,
        ]
        let optional: [(String, String?)] = [
            ("customer_item_id", customerItemID), ("result", result), ("brand", brand), ("model", model),
            ("category", category), ("username", username), ("certificate_url", certificateURL),
            ("from", transition.from), ("to", transition.to),
        ]
        for (name, value) in optional { if let value { values[name] = value } }
        return values
    }

    /// The `data` object of a callback body.
    public var callbackData: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "entrupy_id": .string(entrupyID), "customer_item_id": text(customerItemID), "result": text(result),
            "result_final": .bool(resultFinal), "flag": .string(flag), "brand": text(brand), "model": text(model),
            "category": text(category), "username": text(username), "certificate_url": text(certificateURL),
            "transition": .string(transition.kind.rawValue), "from": text(transition.from), "to": text(transition.to),
            "occurred_at": .string(occurredAtText),
        ])
    }
}
