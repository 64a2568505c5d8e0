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
            guard let address = IPAddress(hop) else { break }
            client = address
            if !isTrusted(address) { break }
        }
        return client.description
    }
}
