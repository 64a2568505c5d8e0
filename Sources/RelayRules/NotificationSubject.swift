public import Foundation
public import RelayModel

/// What a rule is evaluated against and a template renders: the item as it is now, and the
/// transition that just landed in its timeline.
public struct NotificationSubject: Sendable, Equatable {
    public var item: EntrupyItem
    public var transition: Transition
    public var occurredAt: Date
    /// Everything else Entrupy said (result text, flag info, photos...), read from the item.
    public var details: ItemDetails
    /// The organisation's own ID for the submitter (SDK users mirror), when known.
    public var uniqueUserID: String?

    public init(item: EntrupyItem, transition: Transition, occurredAt: Date, details: ItemDetails? = nil, uniqueUserID: String? = nil) {
        self.item = item
        self.transition = transition
        self.occurredAt = occurredAt
        self.details = details ?? ItemDetails.read(from: item.raw)
        self.uniqueUserID = uniqueUserID
    }

    /// The names templates may use; `rules check` rejects any other.
    public static let variableNames: Set<String> = [
        "entrupy_id", "customer_item_id", "result", "result_final", "flag", "brand", "model", "category",
        "username", "certificate_url", "transition", "from", "to", "occurred_at",
        "result_label", "result_header", "result_message", "result_reason", "flag_reason", "flag_message", "photo_url",
        "certificate_preview", "certificate_id", "organization", "submitted_at", "unique_user_id",
        "retake_reasons", "customer_state",
    ]

    public var occurredAtText: String { ISODate.text(occurredAt) }

    /// Template values: absent fields are left out, so `{{#brand}}...{{/brand}}` can test them.
    public var templateValues: [String: String] {
        var values: [String: String] = [
            "entrupy_id": item.entrupyID, "result_final": item.resultFinal ? "true" : "false", "flag": item.flag,
            "transition": transition.kind.rawValue, "occurred_at": occurredAtText,
        ]
        let optional: [(String, String?)] = [
            ("customer_item_id", item.customerItemID), ("result", item.result), ("brand", item.brand), ("model", item.model),
            ("category", item.category), ("username", item.username), ("certificate_url", item.certificateURL),
            ("from", transition.from), ("to", transition.to),
            ("result_label", item.result.map(ItemLabels.result)), ("result_header", details.resultHeader),
            ("result_message", details.resultMessage), ("result_reason", details.resultReason),
            ("flag_reason", details.flagInfo?.label), ("flag_message", details.flagInfo?.message), ("photo_url", details.photoURL),
            ("certificate_preview", details.certificatePreview), ("certificate_id", details.certificateID),
            ("organization", details.organization),
            ("submitted_at", (details.submittedAt ?? item.submittedAt).map(ISODate.text)), ("unique_user_id", uniqueUserID),
            ("retake_reasons", details.retakeReasons.isEmpty ? nil : details.retakeReasons.joined(separator: "; ")),
            ("customer_state", details.customerState),
        ]
        for (name, value) in optional { if let value { values[name] = value } }
        return values
    }

    /// The `data` object of a callback body.
    public var callbackData: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object([
            "entrupy_id": .string(item.entrupyID), "customer_item_id": text(item.customerItemID), "result": text(item.result),
            "result_final": .bool(item.resultFinal), "flag": .string(item.flag), "brand": text(item.brand), "model": text(item.model),
            "category": text(item.category), "username": text(item.username), "certificate_url": text(item.certificateURL),
            "certificate_id": text(details.certificateID), "transition": .string(transition.kind.rawValue), "from": text(transition.from), "to": text(transition.to),
            "occurred_at": .string(occurredAtText),
            "result_header": text(details.resultHeader), "result_message": text(details.resultMessage),
            "flag_reason": text(details.flagInfo?.label), "flag_message": text(details.flagInfo?.message),
            "photo_url": text(details.photoURL), "unique_user_id": text(uniqueUserID),
            "retake_reasons": .array(details.retakeReasons.map(JSONValue.string)), "customer_state": text(details.customerState),
        ])
    }
}
