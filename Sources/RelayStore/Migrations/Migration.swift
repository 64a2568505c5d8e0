import Crypto
import RelayModel

/// One numbered SQL file from `migrations/`.
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String
    /// SHA-256 of the file's bytes: an applied migration must never change.
    public let checksum: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
        self.checksum = HexBytes.encode(SHA256.hash(data: Array(sql.utf8)))
    }

    /// `0001_webhook_events.sql` → (1, "webhook_events"); nil for any other name.
    public static func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".sql") else { return nil }
        let stem = fileName.dropLast(4)
        guard let underscore = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<underscore]
        let name = stem[stem.index(after: underscore)...]
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let version = Int(digits), version > 0, !name.isEmpty else { return nil }
        return (version, String(name))
    }
}
