/// The result of reading a verified webhook body: identifiers, state, and the key that
/// makes a redelivery recognisable.
public struct ParsedWebhook: Sendable, Equatable {
    public var identifiers: WebhookIdentifiers
    public var state: WebhookEventState
    /// `id:<event id>` when the event carries an ID, else `sha256:<hex of the raw body>`.
    public var dedupKey: String
    public var bodySHA256: String
    /// Why the body could not be read, for `unparseable` events.
    public var parseError: String?

    public init(identifiers: WebhookIdentifiers, state: WebhookEventState, dedupKey: String, bodySHA256: String, parseError: String?) {
        self.identifiers = identifiers
        self.state = state
        self.dedupKey = dedupKey
        self.bodySHA256 = bodySHA256
        self.parseError = parseError
    }
}
