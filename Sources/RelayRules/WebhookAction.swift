public import RelayModel

/// An HTTP callback to a fixed URL: signed (Standard Webhooks) unless it posts to a chat
/// service's incoming webhook, whose URL is its secret.
public struct WebhookAction: Sendable {
    public var url: String
    /// Nil only for an unsigned chat target (a `preset` without a `secret`).
    public var secret: WebhookSecret?
    /// Names the secret in stored deliveries without revealing it: a SHA-256 fingerprint.
    public var signingKeyID: String?
    /// Extra request headers, in the order written.
    public var headers: [(name: String, value: String)]
    /// What is posted: the relay's own body, the rule's template, or a chat service's shape.
    public var body: WebhookBody

    public init(url: String, secret: WebhookSecret?, signingKeyID: String?, headers: [(name: String, value: String)],
                body: WebhookBody = .standard) {
        self.url = url
        self.secret = secret
        self.signingKeyID = signingKeyID
        self.headers = headers
        self.body = body
    }

    /// Sent without Standard Webhooks headers.
    public var unsigned: Bool { secret == nil }
}
