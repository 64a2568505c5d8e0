/// What a `support.message` or `certificate.transfer` event says, in a sentence for the
/// item's timeline: the support message's text (with its author), the transfer's status.
/// Other events say nothing beyond "fetch again". Pure; a body of any other shape is nil.
public enum WebhookNote {
    public static let eventTypes: Set<String> = ["support.message", "certificate.transfer"]

    /// The longest note kept (a support message may be long; the raw event keeps it whole).
    public static let maxCharacters = 2_000

    public static func read(eventType: String?, body: [UInt8]) -> String? {
        guard let eventType, eventTypes.contains(eventType), let json = try? JSONValue.parse(body) else { return nil }
        let data = json["data"] ?? json
        switch eventType {
        case "support.message":
            let message = data["message"] ?? data["support_message"]
            guard let body = words(message?["text"] ?? message?["body"] ?? (message?.stringValue).map(JSONValue.string)) else { return nil }
            let author = words(message?["author"])
            return cut((author.map { "\($0): " } ?? "") + body)
        case "certificate.transfer":
            let transfer = data["transfer"] ?? data["certificate_transfer"]
            guard let status = words(transfer?["status"] ?? (transfer?.stringValue).map(JSONValue.string)) else { return nil }
            return cut("certificate transfer " + status)
        default:
            return nil
        }
    }

    static func words(_ value: JSONValue?) -> String? {
        value?.stringValue.flatMap(EntrupyItemParser.nonEmpty)
    }

    static func cut(_ text: String) -> String {
        StoredText.clean(text, maxCharacters: maxCharacters)
    }
}
