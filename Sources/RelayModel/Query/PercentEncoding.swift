/// The one percent-encoder (RFC 3986): every byte but the unreserved characters
/// `A-Z a-z 0-9 - . _ ~` becomes `%XX` of its UTF-8, space included (`%20`). Query strings,
/// form bodies and URL path segments all use it.
public enum PercentEncoding {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xf, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// One path segment: escaped as above, and a segment of dots alone (`.`, `..`) is encoded
    /// whole, so an identifier cannot climb the path (`/v1/lookup/authentications/..` would
    /// otherwise be `/v1/lookup`).
    public static func pathSegment(_ segment: String) -> String {
        if !segment.isEmpty, segment.allSatisfy({ $0 == "." }) { return String(repeating: "%2E", count: segment.count) }
        return escape(segment)
    }
}
