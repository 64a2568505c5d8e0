import Crypto
import Foundation

/// Extracts identifiers from a webhook body by the contract's paths (section 1). No public
/// schema exists, so every path is tried in order and unknown shapes are tolerated.
public enum WebhookPayloadParser {
    static let eventTypePaths = ["event", "type", "event_type"]
    static let eventIDPaths = ["id", "event_id"]
    /// What kind of session the event is about; `fingerprint` sessions are no authentications.
    static let activityPaths = ["activity.name", "data.activity.name", "item.activity.name", "data.item.activity.name"]
    /// The note an event about a fingerprinting session is stored with.
    public static let fingerprintNote = "a fingerprinting session (activity.name fingerprint): no authentication to look up"
    static let entrupyIDPaths = [
        "entrupy_id", "authentication_id", "data.entrupy_id", "data.authentication_id",
        "item.entrupy_id", "data.item.entrupy_id",
    ]
    static let customerItemIDPaths: [String] = {
        let prefixes = ["", "data.", "item.", "data.item."]
        let current = ["customer_item_id", "text_fields.customer_item_id", "properties.customer_item_id"]
        let older = ["text_fields.sku", "text_fields.order_id"]
        return prefixes.flatMap { p in current.map { p + $0 } } + prefixes.flatMap { p in older.map { p + $0 } }
    }()

    /// Longest identifier we keep; longer values are treated as absent rather than stored truncated.
    public static let maxIdentifierLength = 512

    /// - Parameters:
    ///   - body: the exact bytes received.
    ///   - headers: header values keyed by lowercase name (for `webhook-id`).
    ///   - scheme: the signature that verified the request. `webhook-id` names the event only
    ///     when Standard Webhooks verified it (it is part of what that scheme signs); under
    ///     `Entrupy-Signature` the header is not signed, and trusting it would let anyone who
    ///     captured one body replay it as any number of new events.
    public static func parse(body: [UInt8], headers: [String: String], verifiedBy scheme: SignatureScheme) -> ParsedWebhook {
        let digest = HexBytes.encode(SHA256.hash(data: body))
        let headerEventID = scheme == .standardWebhooks ? headers["webhook-id"].flatMap(clean) : nil
        // Two deliveries are one event only when their bodies are the same, or when a signed
        // `webhook-id` says so (Standard Webhooks makes it unique per message). A body's own `id`
        // is recorded but decides nothing: nothing says Entrupy never reuses one (a session's
        // ID on each of its events, say), and merging two events would drop the second.
        let key = headerEventID.map { "id:" + $0 } ?? "sha256:" + digest
        func result(_ ids: WebhookIdentifiers, _ state: WebhookEventState, _ error: String?) -> ParsedWebhook {
            return ParsedWebhook(identifiers: ids, state: state, dedupKey: key, bodySHA256: digest, parseError: error)
        }

        let json: JSONValue
        do {
            json = try JSONValue.parse(body)
        } catch {
            return result(WebhookIdentifiers(eventID: headerEventID), .unparseable, "body is not valid JSON")
        }
        guard let object = json.objectValue else {
            return result(WebhookIdentifiers(eventID: headerEventID), .unparseable, "body is JSON but not an object")
        }

        var ids = WebhookIdentifiers()
        ids.eventType = firstString(in: object, paths: eventTypePaths)
        ids.eventID = firstString(in: object, paths: eventIDPaths) ?? headerEventID
        ids.entrupyID = firstString(in: object, paths: entrupyIDPaths)
        ids.customerItemID = firstString(in: object, paths: customerItemIDPaths)
        // Entrupy sends session.completed for fingerprinting sessions too: the API serves no
        // authentication for them, so a lookup could only answer 404 until the window ran out.
        if firstString(in: object, paths: activityPaths)?.lowercased() == "fingerprint" {
            return result(ids, .unrecognised, fingerprintNote)
        }
        return result(ids, ids.identifiesItem ? .queued : .unrecognised, nil)
    }

    static func firstString(in object: [String: JSONValue], paths: [String]) -> String? {
        let root = JSONValue.object(object)
        for path in paths {
            if let value = root[path: path].flatMap(identifier(from:)) { return value }
        }
        return nil
    }

    /// Reads an identifier from the shapes Entrupy uses: a string, a number, an object with
    /// `content` or `value` (REST v1 text fields), or an array of such objects (SDK text
    /// fields), preferring the entry marked `is_identifier`.
    static func identifier(from value: JSONValue) -> String? {
        switch value {
        case .string, .number:
            return value.scalarText.flatMap(clean)
        case .object(let object):
            for key in ["content", "value"] {
                if let inner = object[key], let text = inner.scalarText.flatMap(clean) { return text }
            }
            return nil
        case .array(let array):
            if let marked = array.first(where: { $0["is_identifier"]?.boolValue == true }),
               let found = identifier(from: marked) {
                return found
            }
            for element in array {
                if case .array = element { continue }
                if let found = identifier(from: element) { return found }
            }
            return nil
        case .null, .bool:
            return nil
        }
    }

    static func clean(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= maxIdentifierLength,
              !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else { return nil }
        return trimmed
    }
}
