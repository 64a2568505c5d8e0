public import RelayModel

/// One POST, signed unless it has no secret (a chat preset's target, whose URL is its secret):
/// the body is sent byte for byte as stored, so every attempt of a delivery carries the same
/// content and the same `webhook-id`; only the timestamp and signature change.
public struct CallbackRequest: Sendable {
    public var url: String
    public var body: [UInt8]
    /// Stable across retries of one delivery: the consumer's idempotency key.
    public var messageID: String
    /// Nil: sent without Standard Webhooks headers.
    public var secret: WebhookSecret?
    public var headers: [(name: String, value: String)]

    public init(url: String, body: [UInt8], messageID: String, secret: WebhookSecret?, headers: [(name: String, value: String)] = []) {
        self.url = url
        self.body = body
        self.messageID = messageID
        self.secret = secret
        self.headers = headers
    }

    /// The Standard Webhooks headers for sending at `timestamp` (epoch seconds); none unsigned.
    public func signatureHeaders(timestamp: Int64) -> [(name: String, value: String)] {
        guard let secret else { return [] }
        return [
            ("webhook-id", messageID),
            ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", StandardWebhookVerifier.sign(id: messageID, timestamp: timestamp, body: body, secret: secret)),
        ]
    }
}
