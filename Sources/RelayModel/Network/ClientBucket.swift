/// Which sender a client address counts as, for limits per client: a sender holding many
/// addresses must not get a share per address. IPv4 counts by address (an IPv4-mapped
/// `::ffff:a.b.c.d`, a 6to4 `2002:aabb:ccdd::/48` and a NAT64 `64:ff9b::/96` address count as
/// the IPv4 address they carry); any other IPv6 address by its /64, the smallest network a site
/// is given, with its /48 (what one site commonly holds, and what a free tunnel broker hands
/// out) as the wider `network`. A zone ID is dropped; anything that does not read as an address
/// (a unix socket, garbage) shares one bucket, so varying it buys nothing.
public struct ClientBucket: Sendable, Hashable, CustomStringConvertible {
    /// The sender: an IPv4 address, or an IPv6 /64 (`2001:db8:1:2::/64`).
    public let client: String
    /// The IPv6 /48 the /64 is in; nil for IPv4 and for unreadable addresses.
    public let network: String?

    /// The one bucket every address that does not parse shares.
    public static let unreadable = "unreadable"

    public init(_ address: String?) {
        guard let text = address, text.utf8.count <= 100, let parsed = IPAddress(text) else {
            self.client = Self.unreadable
            self.network = nil
            return
        }
        if let v4 = Self.embeddedIPv4(parsed) {
            self.client = v4.map(String.init).joined(separator: ".")
            self.network = nil
            return
        }
        self.client = Self.prefix(parsed.bytes, groups: 4) + "::/64"
        self.network = Self.prefix(parsed.bytes, groups: 3) + "::/48"
    }

    public var description: String { client }

    /// The IPv4 address an address is, or carries where the prefix says the host is one IPv4 host.
    static func embeddedIPv4(_ address: IPAddress) -> [UInt8]? {
        let bytes = address.bytes
        if address.isIPv4 { return Array(bytes[12..<16]) }
        if bytes[0] == 0x20, bytes[1] == 0x02 { return Array(bytes[2..<6]) }
        if nat64.contains(address) { return Array(bytes[12..<16]) }
        return nil
    }

    static let nat64 = CIDRBlock("64:ff9b::/96")!

    /// The first `groups` 16-bit groups, in lower-case hex without leading zeros.
    static func prefix(_ bytes: [UInt8], groups: Int) -> String {
        (0..<groups).map { String(UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
