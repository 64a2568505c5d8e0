/// Collects reply lines (`250-first`, `250-second`, `250 last`) into replies. Pure, so the
/// framing rules are unit tested without a server.
public struct SMTPReplyParser: Sendable {
    public struct Malformed: Error, CustomStringConvertible {
        public var line: String
        public var description: String { "malformed SMTP reply line: \"\(line.prefix(120))\"" }
    }

    private var code: Int?
    private var lines: [String] = []

    public init() {}

    /// Feeds one line (without CRLF); returns the reply when this line completes one.
    public mutating func feed(_ line: String) throws -> SMTPReply? {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, bytes[0...2].allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let value = Int(String(decoding: bytes[0...2], as: UTF8.self)), (200...599).contains(value) else {
            throw Malformed(line: line)
        }
        if let code, code != value { throw Malformed(line: line) }
        let separator = bytes.count > 3 ? bytes[3] : UInt8(ascii: " ")
        guard separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else { throw Malformed(line: line) }
        code = value
        lines.append(bytes.count > 4 ? String(decoding: bytes[4...], as: UTF8.self) : "")
        guard separator == UInt8(ascii: " ") else { return nil }
        defer { code = nil; lines = [] }
        return SMTPReply(code: value, lines: lines)
    }
}
