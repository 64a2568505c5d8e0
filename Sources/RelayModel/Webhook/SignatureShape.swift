/// What a refused webhook presented, by shape only: which signature headers, how the value
/// was encoded and how long it was; never the value, never the body. When Entrupy signs in a
/// way the relay does not read (another encoding, a timestamped header), this is what tells the
/// operator what arrives instead of silence.
public struct SignatureShape: Sendable, Equatable, Codable {
    /// The signature-related headers present, lower case, in a fixed order.
    public var headers: [String]
    /// How the signature value reads: `hex`, `sha256=hex`, `base64`, `sha256=base64`,
    /// `v1,base64` (Standard Webhooks), `timestamped` (`t=…,v1=…`), `other` or `none`.
    public var encoding: String
    /// The signature value's length in characters (0 when none).
    public var length: Int
    /// Why it was refused: `missing_signature`, `invalid_signature`, `stale_timestamp`.
    public var reason: String

    public init(headers: [String], encoding: String, length: Int, reason: String) {
        self.headers = headers
        self.encoding = encoding
        self.length = length
        self.reason = reason
    }

    /// Headers worth naming, in the order they are named.
    public static let knownHeaders = EntrupySignatureVerifier.headerNames + ["webhook-signature", "webhook-id", "webhook-timestamp"]

    /// The shape of `headers` (values keyed by lower-case name) refused for `outcome`.
    public static func of(headers: [String: String], outcome: VerificationOutcome) -> SignatureShape {
        let present = knownHeaders.filter { headers[$0] != nil }
        let value = (EntrupySignatureVerifier.headerNames + ["webhook-signature"]).lazy.compactMap { headers[$0] }.first
        return SignatureShape(headers: present, encoding: value.map(encoding(of:)) ?? "none",
                              length: min(value?.count ?? 0, 100_000), reason: outcome.label)
    }

    /// The first header of `headers` that carries a signature, or `none`: a metric's label.
    public var signatureHeader: String {
        headers.first { $0 != "webhook-id" && $0 != "webhook-timestamp" } ?? "none"
    }

    static func encoding(of raw: String) -> String {
        let value = raw.trimmingWhitespace()
        let lower = value.lowercased()
        if value.isEmpty { return "other" }
        if lower.hasPrefix("t=") || lower.contains(",v1=") { return "timestamped" }
        if lower.hasPrefix("v1,") { return "v1,base64" }
        let prefixed = lower.hasPrefix("sha256=")
        let digest = Array((prefixed ? lower.dropFirst(7) : Substring(lower)).utf8)
        let prefix = prefixed ? "sha256=" : ""
        func within(_ byte: UInt8, _ low: Character, _ high: Character) -> Bool {
            (low.asciiValue!...high.asciiValue!).contains(byte)
        }
        if !digest.isEmpty, digest.allSatisfy({ within($0, "0", "9") || within($0, "a", "f") }) { return prefix + "hex" }
        let base64 = digest.allSatisfy { within($0, "a", "z") || within($0, "0", "9") || "+/=-_".utf8.contains($0) }
        return base64 && !digest.isEmpty ? prefix + "base64" : "other"
    }
}
