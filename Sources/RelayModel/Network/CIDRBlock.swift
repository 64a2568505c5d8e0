import Foundation

/// A network such as `10.0.0.0/8`, `::1/128` or a bare address (a /32 or /128).
public struct CIDRBlock: Sendable, Hashable, CustomStringConvertible {
    public let network: IPAddress
    /// Prefix length counted over the 128-bit mapped form.
    public let prefixLength: Int
    public let description: String

    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let address = IPAddress(parts[0]) else { return nil }
        let maxBits = address.isIPv4 ? 32 : 128
        var bits = maxBits
        if parts.count == 2 {
            guard let value = Int(parts[1]), (0...maxBits).contains(value) else { return nil }
            bits = value
        }
        network = address
        prefixLength = address.isIPv4 ? bits + 96 : bits
        description = text.trimmingCharacters(in: .whitespaces)
    }

    public func contains(_ address: IPAddress) -> Bool {
        var remaining = prefixLength
        for index in 0..<16 where remaining > 0 {
            let take = min(8, remaining)
            let mask: UInt8 = take == 8 ? 0xff : ~(0xff >> UInt8(take))
            if address.bytes[index] & mask != network.bytes[index] & mask { return false }
            remaining -= take
        }
        return true
    }
}
