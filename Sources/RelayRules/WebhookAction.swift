public import RelayModel

/// A signed HTTP callback (Standard Webhooks) to a fixed URL.
public struct WebhookAction: Sendable {
    public var url: String
    public var secret: WebhookSecret
    /// Names the secret in stored deliveries without revealing it: a SHA-256 fingerprint.
    public var signingKeyID: String
    /// Extra request headers, in the order written.
    public var headers: [(name: String, value: String)]

    public init(url: String, secret: WebhookSecret, signingKeyID: String, headers: [(name: String, value: String)]) {
        self.url = url
        self.secret = secret
        self.signingKeyID = signingKeyID
        self.headers = headers
    }
}
