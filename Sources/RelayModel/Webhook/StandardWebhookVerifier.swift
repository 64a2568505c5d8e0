import Crypto
public import Foundation

/// Verifies the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`,
/// `webhook-signature: v1,<base64>` over `id.timestamp.body`), so the receiver can sit
/// behind a gateway that re-signs. Timestamps outside the tolerance are refused to stop replays.
public struct StandardWebhookVerifier: Sendable {
    public let secrets: [WebhookSecret]
    public let tolerance: TimeInterval

    public init(secrets: [WebhookSecret], tolerance: TimeInterval = 300) {
        self.secrets = secrets
        self.tolerance = tolerance
    }

    /// - Returns: nil when no `webhook-signature` header is present.
    public func verify(body: [UInt8], headers: [String: String], now: Date) -> VerificationOutcome? {
        guard let signatureHeader = headers["webhook-signature"] else { return nil }
        guard !secrets.isEmpty else { return .invalidSignature(reason: "no Standard Webhooks secret configured") }
        guard let id = headers["webhook-id"], !id.isEmpty,
              let timestampText = headers["webhook-timestamp"] else {
            return .invalidSignature(reason: "webhook-id and webhook-timestamp are required")
        }
        guard let timestamp = Int64(timestampText.trimmingCharacters(in: .whitespaces)) else {
            return .invalidSignature(reason: "webhook-timestamp is not an integer")
        }
        guard abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return .staleTimestamp }

        let candidates: [[UInt8]] = signatureHeader.split(separator: " ").compactMap { entry in
            let parts = entry.split(separator: ",", maxSplits: 1)
            guard parts.count == 2, parts[0] == "v1" else { return nil }
            return Base64Bytes.decode(parts[1])
        }
        guard !candidates.isEmpty else { return .invalidSignature(reason: "no v1 signature in webhook-signature") }

        let signed = Self.signedContent(id: id, timestamp: timestamp, body: body)
        for secret in secrets {
            let key = secret.key
            for mac in candidates where HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed, using: key) {
                return .verified(.standardWebhooks)
            }
        }
        return .invalidSignature(reason: "signature matches no configured secret")
    }

    static func signedContent(id: String, timestamp: Int64, body: [UInt8]) -> [UInt8] {
        var bytes = Array("\(id).\(timestamp).".utf8)
        bytes.append(contentsOf: body)
        return bytes
    }

    /// The `webhook-signature` value for a message; used to sign outgoing callbacks and by tests.
    public static func sign(id: String, timestamp: Int64, body: [UInt8], secret: WebhookSecret) -> String {
        let signed = signedContent(id: id, timestamp: timestamp, body: body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: secret.keyBytes))
        return "v1," + Base64Bytes.encode(mac)
    }
}
