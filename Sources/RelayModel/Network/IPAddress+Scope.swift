extension IPAddress {
    /// Special-purpose ranges (IANA's registries) that are not globally reachable, with the
    /// name a refusal gives. Callbacks go only to global unicast addresses: a target that
    /// resolves anywhere else could reach the relay's own network or a cloud's metadata
    /// service (SSRF), so this is an allow-list of what is left, not a list of known dangers.
    static let nonGlobalIPv4: [(block: CIDRBlock, scope: String)] = [
        ("0.0.0.0/8", "unspecified"), ("10.0.0.0/8", "private"), ("100.64.0.0/10", "shared (carrier-grade NAT)"),
        ("127.0.0.0/8", "loopback"), ("169.254.0.0/16", "link-local"), ("172.16.0.0/12", "private"),
        ("192.0.0.0/24", "IETF protocol assignment"), ("192.0.2.0/24", "documentation"),
        ("192.88.99.0/24", "6to4 relay"), ("192.168.0.0/16", "private"), ("198.18.0.0/15", "benchmarking"),
        ("198.51.100.0/24", "documentation"), ("203.0.113.0/24", "documentation"), ("224.0.0.0/4", "multicast"),
        ("240.0.0.0/4", "reserved"), ("168.63.129.16/32", "cloud platform service (Azure wire server)"),
    ].map { (CIDRBlock($0.0)!, $0.1) }

    /// IPv6 is global unicast only inside 2000::/3, and not in these parts of it.
    static let globalIPv6 = CIDRBlock("2000::/3")!
    static let nonGlobalIPv6: [(block: CIDRBlock, scope: String)] = [
        ("2001::/23", "IETF protocol assignment (Teredo and others)"), ("2001:db8::/32", "documentation"),
        ("2002::/16", "6to4 (embeds an IPv4 address)"), ("3fff::/20", "documentation"),
    ].map { (CIDRBlock($0.0)!, $0.1) }
    /// Names for IPv6 outside 2000::/3, for messages.
    static let namedIPv6: [(block: CIDRBlock, scope: String)] = [
        ("::/128", "unspecified"), ("::1/128", "loopback"), ("::/96", "IPv4-compatible"), ("64:ff9b::/96", "NAT64"),
        ("64:ff9b:1::/48", "NAT64 (local)"), ("fc00::/7", "private"), ("fe80::/10", "link-local"), ("ff00::/8", "multicast"),
    ].map { (CIDRBlock($0.0)!, $0.1) }

    /// Why a callback may not go to this address ("loopback", "private", "NAT64", ...), or nil
    /// when it is a global unicast address.
    public var restrictedScope: String? {
        if isIPv4 { return Self.nonGlobalIPv4.first { $0.block.contains(self) }?.scope }
        guard Self.globalIPv6.contains(self) else {
            return Self.namedIPv6.first { $0.block.contains(self) }?.scope ?? "not global unicast"
        }
        return Self.nonGlobalIPv6.first { $0.block.contains(self) }?.scope
    }
}
