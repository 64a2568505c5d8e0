public import RelayModel

/// What a webhook action posts. Rendered once, when the delivery is planned; every attempt
/// sends the same text.
public enum WebhookBody: Sendable {
    /// `{type, timestamp, data}`, as the OpenAPI document's `webhooks` section describes.
    case standard
    /// The rule's `body:`, a JSON template whose values are JSON-string-escaped; checked at
    /// load to render valid JSON.
    case template(NotificationTemplate)
    /// A chat service's message shape, with the preset's line or the rule's `text:`.
    case preset(ChatPreset, text: NotificationTemplate?)

    /// The body text for a transition: `values` are the template values, `operational` says
    /// whether they are an operational event's, and `standard` builds the relay's own body.
    /// A template that renders invalid JSON for these values (the load-time check renders
    /// samples, not every combination of present and absent values) gives `InvalidBody`: the
    /// relay sends no body the operator did not write, so that delivery fails.
    public func render(_ values: [String: String], operational: Bool, standard: () -> JSONValue) -> Result<String, InvalidBody> {
        switch self {
        case .standard:
            return .success(standard().jsonText)
        case .template(let template):
            let text = template.render(values)
            do {
                _ = try JSONParser.parse(Array(text.utf8))
                return .success(text)
            } catch {
                return .failure(InvalidBody(message: "the body template rendered invalid JSON for this item (\(error)); "
                                            + "nothing was sent, as the relay sends no body the rule did not write"))
            }
        case .preset(let preset, let text):
            return .success(preset.body(values, operational: operational, text: text).jsonText)
        }
    }

    /// A body template's rendering that is not JSON, for one item: why its delivery fails.
    public struct InvalidBody: Error, Sendable, Equatable {
        public let message: String
    }
}
