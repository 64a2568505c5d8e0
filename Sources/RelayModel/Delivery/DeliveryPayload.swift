/// What a delivery sends, fully rendered when it is planned, so a retry sends exactly what the
/// first attempt did. `DeliveryPlanner` makes it; it is stored as JSON in `deliveries.payload`
/// (`json`) and read back once (`init(stored:)`) for the deliverers. The stored shape is
/// `{to, subject, text, html?, group?}` for email and `{url, headers: [[name, value]], body, unsigned?, unsendable?}`
/// for a webhook (`unsigned: true` only for a chat target sent without signature headers; `unsendable` only
/// when there is no body to send): rows stored by any version read back.
public enum DeliveryPayload: Sendable, Equatable {
    case email(Email)
    case webhook(Webhook)

    public struct Email: Sendable, Equatable {
        public var to: [String]
        public var subject: String
        public var text: String
        public var html: String?
        /// The group it is sent in, one email for the group (`EmailGroup`); nil: sent alone.
        public var group: EmailGroup?

        public init(to: [String], subject: String, text: String, html: String? = nil, group: EmailGroup? = nil) {
            self.to = to
            self.subject = subject
            self.text = text
            self.html = html
            self.group = group
        }
    }

    public struct Webhook: Sendable, Equatable {
        /// The partner's URL whole (a secret in its path or query included): sent to, never shown.
        public var url: String
        public var headers: [Header]
        /// The JSON document sent, as the text that is signed.
        public var body: String
        /// Sent without Standard Webhooks headers, by design (a chat preset's target, whose
        /// URL is its secret); a signed delivery whose secret is gone is not this.
        public var unsigned: Bool
        /// Why nothing may be sent (the rule's body template rendered invalid JSON for this item,
        /// and the relay sends no body the operator did not write): the deliverer fails the delivery
        /// for good with it. `body` is then empty. Nil for every sendable delivery.
        public var unsendable: String?

        public init(url: String, headers: [Header], body: String, unsigned: Bool = false, unsendable: String? = nil) {
            self.url = url
            self.headers = headers
            self.body = body
            self.unsigned = unsigned
            self.unsendable = unsendable
        }
    }

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var channel: DeliveryChannel {
        switch self {
        case .email: .email
        case .webhook: .webhook
        }
    }

    /// The stored form.
    public var json: JSONValue {
        switch self {
        case .email(let email):
            var fields: [String: JSONValue] = [
                "to": .array(email.to.map(JSONValue.string)), "subject": .string(email.subject), "text": .string(email.text),
            ]
            if let html = email.html { fields["html"] = .string(html) }
            if let group = email.group { fields["group"] = group.json }
            return .object(fields)
        case .webhook(let webhook):
            var fields: [String: JSONValue] = [
                "url": .string(webhook.url),
                "headers": .array(webhook.headers.map { .array([.string($0.name), .string($0.value)]) }),
                "body": .string(webhook.body),
            ]
            if webhook.unsigned { fields["unsigned"] = .bool(true) }
            if let unsendable = webhook.unsendable { fields["unsendable"] = .string(unsendable) }
            return .object(fields)
        }
    }

    /// Reads the stored form of a delivery on `channel`; nil when it lacks what that channel
    /// sends (the deliverers then fail the delivery for good, naming what is missing).
    public init?(stored json: JSONValue, channel: DeliveryChannel) {
        switch channel {
        case .email:
            guard let to = json["to"]?.arrayValue?.compactMap(\.stringValue), !to.isEmpty,
                  let subject = json["subject"]?.stringValue, let text = json["text"]?.stringValue else { return nil }
            self = .email(Email(to: to, subject: subject, text: text, html: json["html"]?.stringValue,
                                group: json["group"].flatMap(EmailGroup.init(stored:))))
        case .webhook:
            guard let url = json["url"]?.stringValue, let body = json["body"]?.stringValue else { return nil }
            let headers: [Header] = (json["headers"]?.arrayValue ?? []).compactMap { pair in
                guard let parts = pair.arrayValue, parts.count == 2, let name = parts[0].stringValue,
                      let value = parts[1].stringValue else { return nil }
                return Header(name: name, value: value)
            }
            self = .webhook(Webhook(url: url, headers: headers, body: body, unsigned: json["unsigned"]?.boolValue == true,
                                    unsendable: json["unsendable"]?.stringValue))
        }
    }

    /// What a channel's payload must hold, for the error when a stored one does not.
    public static func required(for channel: DeliveryChannel) -> String {
        switch channel {
        case .email: "to, subject, text"
        case .webhook: "url, body"
        }
    }
}
