public import Foundation

/// Reads an item from Entrupy's JSON, tolerating both the REST v1 shape and the SDK's.
public enum EntrupyItemParser {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notAnObject
        case missingEntrupyID

        public var description: String {
            switch self {
            case .notAnObject: "item is not a JSON object"
            case .missingEntrupyID: "item has neither entrupy_id nor authentication_id"
            }
        }
    }

    /// A lookup's answer, in any shape Entrupy may give it: `{"item": {...}}`, a bare item, or,
    /// as the v1 route's title "Retrieve Authentication Sessions" allows, a list (`{"items":
    /// [...]}`, `{"item": [...]}` or `[...]`), of which the latest submitted is the one meant.
    /// Nil for an empty list (nothing found). An entry that cannot be read makes the whole answer
    /// unreadable: passing it over could reconcile an older authentication than the one meant.
    public static func parseLookup(_ json: JSONValue) throws -> EntrupyItem? {
        guard let list = lookupList(json) else { return try parse(json) }
        let items = try list.map(parse)
        // Latest by submission; an item without a time counts as oldest, and of equals the later in the list.
        return items.enumerated().max { a, b in
            (a.element.submittedAt ?? .distantPast, a.offset) < (b.element.submittedAt ?? .distantPast, b.offset)
        }?.element
    }

    /// The entries of a lookup answered as a list (`{"items": [...]}`, `{"item": [...]}` or
    /// `[...]`); nil when it answered one item.
    public static func lookupList(_ json: JSONValue) -> [JSONValue]? {
        json.arrayValue ?? json["items"]?.arrayValue ?? json["item"]?.arrayValue
    }

    /// Parses `{"item": {...}}` or a bare item object.
    public static func parse(_ json: JSONValue) throws -> EntrupyItem {
        let item = json["item"].flatMap { $0.objectValue != nil ? $0 : nil } ?? json
        guard item.objectValue != nil else { throw Failure.notAnObject }
        guard let id = (item["entrupy_id"] ?? item["authentication_id"])?.scalarText.flatMap(nonEmpty) else {
            throw Failure.missingEntrupyID
        }
        let result = item[path: "status.result.id"]?.scalarText.flatMap(nonEmpty)
        let final = item[path: "status.result.final"]?.boolValue ?? defaultFinal(for: result)
        return EntrupyItem(
            entrupyID: id,
            customerItemID: customerItemID(in: item),
            result: result,
            resultFinal: result == nil ? false : final,
            resultHeader: item[path: "status.result.display.header"]?.stringValue,
            resultMessage: item[path: "status.result.display.message"]?.stringValue,
            flag: flag(in: item),
            brand: catalogueID(item, id: "properties.brand.id", names: ["properties.brand", "properties.brand_name"]),
            model: catalogueID(item, id: "properties.model.id", names: ["properties.model", "properties.model_name"]),
            category: (item[path: "activity.product_category"] ?? item[path: "properties.product_category"])?.scalarText,
            username: item[path: "owner.user.username"]?.scalarText,
            certificateURL: (item[path: "certificate.site"] ?? item[path: "more_details.certificate.site"])?.stringValue,
            submittedAt: submittedEpoch(in: item).flatMap(submissionDate),
            raw: item
        )
    }

    /// When the item was submitted: `event_times.submitted_at.epoch` when Entrupy gives it;
    /// otherwise `timestamp.epoch`, which is when the authentication started (a little earlier).
    static func submittedEpoch(in item: JSONValue) -> Double? {
        item[path: "event_times.submitted_at.epoch"]?.doubleValue ?? item[path: "timestamp.epoch"]?.doubleValue
            ?? item[path: "timestamp.created_at"]?.stringValue.flatMap(ISODate.parse)?.timeIntervalSince1970
    }

    /// A brand or model: its id (REST v1.4), or (v2) a name given as a plain string, made an id.
    static func catalogueID(_ item: JSONValue, id path: String, names: [String]) -> String? {
        if let id = item[path: path]?.scalarText.flatMap(nonEmpty) { return id }
        for name in names {
            if let text = item[path: name]?.stringValue.flatMap(nonEmpty) { return CatalogueID.from(text) }
        }
        return nil
    }

    /// The latest submission time taken from an epoch: the year 9999. Beyond it a date cannot be
    /// stored (PostgreSQL's driver traps on dates past about the year 294,000, as 1e13 is).
    public static let latestEpoch: Double = 253_402_300_799

    /// A submission time from `timestamp.epoch` (seconds since 1970), or nil when it is before
    /// 1970 or after the year 9999: the item is still stored, without a submission time.
    public static func submissionDate(epoch: Double) -> Date? {
        guard epoch.isFinite, epoch >= 0, epoch <= latestEpoch else { return nil }
        return Date(timeIntervalSince1970: epoch)
    }

    /// The results that are final when the API leaves `status.result.final` out (contract
    /// section 3). Every other id (`needs_review`, `data_required`, `received`, `canceled`,
    /// an id Entrupy adds tomorrow) is not, so it never fires `result.final`.
    public static let finalWhenUnsaid: Set<String> = ["authentic", "unknown", "not_supported", "invalid"]

    /// When `final` is absent: only the four results above are final.
    public static func defaultFinal(for result: String?) -> Bool {
        guard let result else { return false }
        return finalWhenUnsaid.contains(result)
    }

    /// `status.flag` is a string in REST v1 and `{id, is_flaggable, flag_info}` in the SDK.
    static func flag(in item: JSONValue) -> String {
        let value = item[path: "status.flag"]
        return (value?.stringValue ?? value?["id"]?.stringValue).flatMap(nonEmpty) ?? "none"
    }

    /// `text_fields.customer_item_id` as a string, an object, or an SDK array; older names after.
    static func customerItemID(in item: JSONValue) -> String? {
        for path in ["text_fields.customer_item_id", "customer_item_id", "properties.customer_item_id", "text_fields.sku", "text_fields.order_id"] {
            if let value = item[path: path], let text = WebhookPayloadParser.identifier(from: value) { return text }
        }
        // SDK: text_fields is an array of {name/key, content, is_identifier}.
        if let fields = item["text_fields"]?.arrayValue {
            let named = fields.first { ($0["name"] ?? $0["key"] ?? $0["id"])?.stringValue == "customer_item_id" }
            if let named, let text = WebhookPayloadParser.identifier(from: named) { return text }
            if let marked = fields.first(where: { $0["is_identifier"]?.boolValue == true }),
               let text = WebhookPayloadParser.identifier(from: marked) { return text }
        }
        return nil
    }

    static func nonEmpty(_ text: String) -> String? {
        // Most values have nothing to trim: printable ASCII at both ends is kept as it is.
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return text
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
