import Foundation
import Crypto

/// Verifies `Entrupy-Signature` (or `X-Entrupy-Signature`): HMAC-SHA256 of the raw body,
/// given as lowercase or uppercase hex or as standard/URL-safe base64, optionally prefixed
/// `sha256=`. Any configured secret may match, so secrets can be rotated without downtime.
public struct EntrupySignatureVerifier: Sendable {
    public static let headerNames = ["entrupy-signature", "x-entrupy-signature"]

    public let secrets: [WebhookSecret]

    public init(secrets: [WebhookSecret]) {
        self.secrets = secrets
    }

    /// - Parameter headers: header values keyed by lowercase name.
    /// - Returns: nil when no Entrupy signature header is present (another scheme may apply).
    public func verify(body: [UInt8], headers: [String: String]) -> VerificationOutcome? {
        guard let raw = Self.headerNames.lazy.compactMap({ headers[$0] }).first else { return nil }
        guard !secrets.isEmpty else { return .invalidSignature(reason: "no Entrupy secret configured") }
        guard let mac = Self.decodeDigest(raw) else {
            return .invalidSignature(reason: "signature is neither hex nor base64 of a SHA-256 digest")
        }
        for secret in secrets {
            let key = secret.key
            if HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: body, using: key) {
                return .verified(.entrupy)
            }
        }
        return .invalidSignature(reason: "signature matches no configured secret")
    }

    /// Accepts `sha256=` + hex/base64, trimming blanks. A digest must be exactly 32 bytes.
    static func decodeDigest(_ header: String) -> [UInt8]? {
        var value = Substring(header.trimmingWhitespace())
        if value.utf8.count >= 7, value.prefix(7).lowercased() == "sha256=" { value = value.dropFirst(7) }
        if value.utf8.count == 64, let bytes = HexBytes.decode(value) { return bytes }
        if let bytes = Base64Bytes.decode(value), bytes.count == 32 { return bytes }
        return nil
    }

    /// The header value Entrupy would send for `body` (hex form). Used by the simulator and tests.
    public static func sign(body: [UInt8], secret: WebhookSecret) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: secret.keyBytes))
        return HexBytes.encode(mac)
    }
}
