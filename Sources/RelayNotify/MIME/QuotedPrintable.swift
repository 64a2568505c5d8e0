/// Quoted-printable (RFC 2045) for UTF-8 text bodies: readable where the text is ASCII, 7-bit
/// safe everywhere, lines at most 76 characters. Line breaks of any kind become CRLF.
public enum QuotedPrintable {
    public static func encode(_ text: String) -> String {
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalised.split(separator: "\n", omittingEmptySubsequences: false)
            .map { encodeLine(Array($0.utf8)) }
            .joined(separator: "\r\n")
    }

    static let hex = Array("0123456789ABCDEF".utf8)

    static func encodeLine(_ bytes: [UInt8]) -> String {
        var lines: [String] = []
        var current: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let piece: [UInt8]
            // Trailing whitespace would be stripped in transit, so it is encoded.
            if (byte >= 33 && byte <= 126 && byte != UInt8(ascii: "=")) || ((byte == 32 || byte == 9) && !isLast) {
                piece = [byte]
            } else {
                piece = [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]]
            }
            if current.count + piece.count > 75 {
                current.append(UInt8(ascii: "="))
                lines.append(String(decoding: current, as: UTF8.self))
                current = []
            }
            current += piece
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines.joined(separator: "\r\n")
    }
}
