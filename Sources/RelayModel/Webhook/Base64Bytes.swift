import Foundation

/// Small, allocation-light encoders used by the verifiers and the event store.
public enum Base64Bytes {
    /// Decodes standard or URL-safe base64, with or without padding. Nil when malformed.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var normalized = String(text).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        let remainder = normalized.utf8.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { normalized += String(repeating: "=", count: 4 - remainder) }
        guard let data = Data(base64Encoded: normalized) else { return nil }
        return [UInt8](data)
    }

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }

    /// URL-safe base64 without padding: fit for cookies, headers and query strings.
    public static func encodeURLSafe(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes).replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
