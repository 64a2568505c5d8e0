/// Which verifier accepted a webhook. Stored with the event so support staff can see how it got in.
public enum SignatureScheme: String, Sendable, Codable, Equatable {
    /// `Entrupy-Signature` / `X-Entrupy-Signature`: HMAC-SHA256 of the raw body.
    case entrupy = "entrupy-signature"
    /// Standard Webhooks: `webhook-signature: v1,<base64>` over `id.timestamp.body`.
    case standardWebhooks = "standard-webhooks"
}
