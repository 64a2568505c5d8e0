/// `application/x-www-form-urlencoded`, as query strings and HTML forms send it: pairs
/// split on `&`, `+` for space, percent-escapes decoded as UTF-8. Both keys and values are
/// decoded; malformed escapes or invalid UTF-8 are an error rather than guessed at.
public enum FormURLEncoding {
    public static func decode(_ text: String) throws(QueryParameterError) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for part in text.split(separator: "&", omittingEmptySubsequences: true) {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try unescape(pieces[0], parameter: String(pieces[0].prefix(64)))
            let value = pieces.count > 1 ? try unescape(pieces[1], parameter: name) : ""
            pairs.append((name, value))
        }
        return pairs
    }

    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { PercentEncoding.escape($0.0) + "=" + PercentEncoding.escape($0.1) }.joined(separator: "&")
    }

    static func unescape(_ text: Substring, parameter: String) throws(QueryParameterError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw QueryParameterError(parameter, "malformed percent-encoding")
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw QueryParameterError(parameter, "is not valid UTF-8")
        }
        return decoded
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
