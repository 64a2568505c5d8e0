import Foundation

/// An IPv4 or IPv6 address as 16 bytes (IPv4 is stored IPv4-mapped, `::ffff:a.b.c.d`), so
/// one comparison works for both families. Parsing is strict: anything else is nil.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]
    public let isIPv4: Bool

    public init?(_ text: some StringProtocol) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        // A zone ID (`fe80::1%eth0`) belongs to IPv6 only: `10.0.0.1%x` is no address.
        var zoned = false
        if let percent = text.firstIndex(of: "%") {
            let zone = text[text.index(after: percent)...]
            guard !zone.isEmpty, zone.unicodeScalars.allSatisfy({ $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
                || $0 == "." || $0 == "_" || $0 == "-" }) else { return nil }
            text = text[..<percent]
            zoned = true
        }
        if !zoned, let v4 = Self.parseIPv4(text) {
            bytes = Array(repeating: 0, count: 10) + [0xff, 0xff] + v4
            isIPv4 = true
        } else if let v6 = Self.parseIPv6(text) {
            let mapped = v6[0..<10].allSatisfy { $0 == 0 } && v6[10] == 0xff && v6[11] == 0xff
            bytes = v6
            isIPv4 = mapped
        } else {
            return nil
        }
    }

    public var description: String {
        if isIPv4 { return bytes[12...].map(String.init).joined(separator: ".") }
        var groups: [String] = []
        for i in stride(from: 0, to: 16, by: 2) {
            groups.append(String(UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]), radix: 16))
        }
        return groups.joined(separator: ":")
    }

    static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var out: [UInt8] = []
        for part in parts {
            // Decimal only, and no leading zero: C's inet_aton reads `012` as octal (10), so a
            // lenient parse here would vet one address while the connection goes to another.
            // ASCII digits only: `UInt8("+1")` is 1, and other scripts' digits are not C's.
            guard !part.isEmpty, part.count <= 3, part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  part == "0" || part.first != "0", let value = UInt8(part) else { return nil }
            out.append(value)
        }
        return out
    }

    static func parseIPv6(_ text: Substring) -> [UInt8]? {
        guard text.contains(":") else { return nil }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            if part.isEmpty { return [] }
            var out: [UInt8] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains("."), let v4 = parseIPv4(piece) {
                    out += v4
                    continue
                }
                guard (1...4).contains(piece.utf8.count), piece.utf8.allSatisfy(Self.isHexDigit),
                      let value = UInt16(piece, radix: 16) else { return nil }
                out += [UInt8(value >> 8), UInt8(value & 0xff)]
            }
            return out
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
