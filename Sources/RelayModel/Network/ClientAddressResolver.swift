import Foundation

/// Works out the real client address behind reverse proxies. `X-Forwarded-For` is believed
/// only from peers inside `trustedProxies`, and only as far back as the chain stays trusted:
/// the rightmost untrusted hop is the client. A spoofed header from an untrusted peer is ignored.
public struct ClientAddressResolver: Sendable {
    public let trustedProxies: [CIDRBlock]

    public init(trustedProxies: [CIDRBlock]) {
        self.trustedProxies = trustedProxies
    }

    public func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    /// - Parameters:
    ///   - peer: the TCP peer address text, nil for unix sockets.
    ///   - forwardedFor: every `X-Forwarded-For` header value, in order.
    public func clientAddress(peer: String?, forwardedFor: [String]) -> String? {
        guard let peer, let peerAddress = IPAddress(peer) else { return peer }
        guard isTrusted(peerAddress) else { return peerAddress.description }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        var client = peerAddress
        for hop in hops.reversed() {
            guard let address = Self.address(ofHop: hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client.description
    }

    /// A hop as proxies write it: `203.0.113.7`, `203.0.113.7:41234`, `2001:db8::1`,
    /// `[2001:db8::1]` or `[2001:db8::1]:41234` (the port is dropped: the client is the address).
    static func address(ofHop hop: String) -> IPAddress? {
        if let address = IPAddress(hop) { return address }
        if hop.hasPrefix("[") {
            guard let close = hop.firstIndex(of: "]") else { return nil }
            let rest = hop[hop.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && isPort(rest.dropFirst())) else { return nil }
            return IPAddress(hop[hop.index(after: hop.startIndex)..<close])
        }
        // One colon: IPv4 with a port (an IPv6 address has several and was read above).
        let parts = hop.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, isPort(parts[1]), let address = IPAddress(parts[0]) else { return nil }
        return address
    }

    static func isPort(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 5 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) && (Int(text) ?? 70_000) <= 65_535
    }
}
