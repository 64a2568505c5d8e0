extension IPAddress {
    /// Ranges a callback must not reach unless private callbacks are allowed: a target that
    /// resolves into one of them could be used to probe the relay's own network (SSRF).
    static let restrictedRanges: [(block: CIDRBlock, scope: String)] = [
        ("0.0.0.0/8", "unspecified"), ("::/128", "unspecified"),
        ("127.0.0.0/8", "loopback"), ("::1/128", "loopback"),
        ("10.0.0.0/8", "private"), ("172.16.0.0/12", "private"), ("192.168.0.0/16", "private"),
        ("fc00::/7", "private"), ("100.64.0.0/10", "shared (carrier-grade NAT)"),
        ("169.254.0.0/16", "link-local"), ("fe80::/10", "link-local"),
        ("224.0.0.0/4", "multicast"), ("ff00::/8", "multicast"),
        ("240.0.0.0/4", "reserved"), ("64:ff9b:1::/48", "private"),
    ].map { (CIDRBlock($0.0)!, $0.1) }

    /// Why this address is not a public unicast one ("loopback", "private", ...), or nil when it is.
    public var restrictedScope: String? {
        Self.restrictedRanges.first { $0.block.contains(self) }?.scope
    }
}
