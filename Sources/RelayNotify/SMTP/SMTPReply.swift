/// A server reply: a three-digit code and its text lines (several for multi-line replies).
public struct SMTPReply: Sendable, Equatable, CustomStringConvertible {
    public var code: Int
    public var lines: [String]

    public init(code: Int, lines: [String]) {
        self.code = code
        self.lines = lines
    }

    public var isPositive: Bool { (200..<400).contains(code) }
    /// 4xx: try again later. 5xx: the server refuses for good.
    public var isTransient: Bool { (400..<500).contains(code) }
    public var isPermanent: Bool { code >= 500 }

    public var description: String {
        "\(code) \(lines.joined(separator: " / "))".trimmingCharacters(in: .whitespaces)
    }
}
