public import Crypto
import Foundation

/// A configured signing key. The bytes never leave this type except into an HMAC key,
/// and `description` never prints them, so logging a configuration cannot leak a secret.
public struct WebhookSecret: Sendable, CustomStringConvertible {
    public let keyBytes: [UInt8]
    /// Made once: building the key per request showed up in the receiver's profile.
    public let key: SymmetricKey

    public init(keyBytes: [UInt8]) {
        self.keyBytes = keyBytes
        self.key = SymmetricKey(data: keyBytes)
    }

    /// An Entrupy subscription secret: the UTF-8 bytes of the string the customer chose.
    public static func entrupy(_ text: String) -> WebhookSecret {
        WebhookSecret(keyBytes: Array(text.utf8))
    }

    /// A Standard Webhooks secret: `whsec_` followed by base64, as the reference libraries take it.
    /// The prefix is optional, the base64 is not.
    public static func standardWebhooks(_ text: String) -> WebhookSecret? {
        let body = text.hasPrefix("whsec_") ? text.dropFirst(6) : Substring(text)
        guard let bytes = Base64Bytes.decode(body), !bytes.isEmpty else { return nil }
        return WebhookSecret(keyBytes: bytes)
    }

    public var description: String { "WebhookSecret(redacted, \(keyBytes.count) bytes)" }

    /// The shortest secret the relay accepts for verifying webhooks: 128 bits.
    public static let minimumBytes = 16
}

extension WebhookSecret {
    /// Names the key without revealing it: `key_` and the first 16 hex digits of its SHA-256.
    public var fingerprint: String {
        "key_" + HexBytes.encode(Array(SHA256.hash(data: keyBytes))).prefix(16)
    }
}
