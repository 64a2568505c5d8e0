import Crypto

/// API tokens: `ert_` and 43 characters of base64url (256 random bits). Only the SHA-256 is
/// stored; a token this random needs no slow hash, and lookups stay one index probe.
public enum APIToken {
    public static let prefix = "ert_"

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + randomText(bytes: 32, using: &generator)
    }

    /// Base64url without padding of `bytes` random bytes: cookie-, header- and URL-safe.
    public static func randomText(bytes: Int, using generator: inout some RandomNumberGenerator) -> String {
        let raw = (0..<bytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Base64Bytes.encodeURLSafe(raw)
    }

    /// Hex SHA-256 of the token's UTF-8, as stored.
    public static func hash(_ token: String) -> String {
        HexBytes.encode(SHA256.hash(data: Array(token.utf8)))
    }

    /// What `tokens list` shows to tell tokens apart: the prefix and four more characters.
    public static func hint(_ token: String) -> String {
        String(token.prefix(prefix.count + 4)) + "…"
    }

    /// A cheap shape check before any database lookup (length bounded, visible ASCII only).
    public static func isPlausible(_ token: String) -> Bool {
        (8...200).contains(token.utf8.count) && token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7f }
    }
}
