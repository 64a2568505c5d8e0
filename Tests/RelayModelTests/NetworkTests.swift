import Testing
@testable import RelayModel

@Suite("Addresses, CIDR blocks and trusted proxies")
struct NetworkTests {
    @Test func parsesAddresses() {
        #expect(IPAddress("10.1.2.3")?.description == "10.1.2.3")
        #expect(IPAddress("::1")?.description == "0:0:0:0:0:0:0:1")
        #expect(IPAddress("::ffff:192.168.0.1")?.description == "192.168.0.1")
        #expect(IPAddress("[2001:db8::1]") != nil)
        #expect(IPAddress("fe80::1%eth0") != nil)
        for bad in ["", "1.2.3", "1.2.3.256", "01234.1.1.1", "1::2::3", "gggg::1", "1.2.3.4:80", "unknown"] {
            #expect(IPAddress(bad) == nil, "\(bad) should not parse")
        }
    }

    @Test func cidrContainment() throws {
        let ten = try #require(CIDRBlock("10.0.0.0/8"))
        #expect(ten.contains(IPAddress("10.255.1.1")!))
        #expect(!ten.contains(IPAddress("11.0.0.1")!))
        let odd = try #require(CIDRBlock("192.168.1.128/25"))
        #expect(odd.contains(IPAddress("192.168.1.200")!))
        #expect(!odd.contains(IPAddress("192.168.1.100")!))
        let v6 = try #require(CIDRBlock("2001:db8::/32"))
        #expect(v6.contains(IPAddress("2001:db8:ffff::1")!))
        #expect(!v6.contains(IPAddress("2001:db9::1")!))
        #expect(CIDRBlock("0.0.0.0/0")!.contains(IPAddress("8.8.8.8")!))
        #expect(CIDRBlock("127.0.0.1")!.contains(IPAddress("127.0.0.1")!))
        for bad in ["10.0.0.0/33", "::/129", "10.0.0.0/x", "nonsense", "10.0.0.0/8/1"] {
            #expect(CIDRBlock(bad) == nil, "\(bad) should not parse")
        }
    }

    @Test func forwardedForIsBelievedOnlyFromTrustedPeers() {
        let resolver = ClientAddressResolver(trustedProxies: [CIDRBlock("127.0.0.1/32")!, CIDRBlock("10.0.0.0/8")!])
        // Untrusted peer: its header is ignored.
        #expect(resolver.clientAddress(peer: "203.0.113.9", forwardedFor: ["1.1.1.1"]) == "203.0.113.9")
        // Trusted peer: the rightmost untrusted hop is the client; spoofed left parts are ignored.
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.7, 10.0.0.5"]) == "198.51.100.7")
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6", "198.51.100.7"]) == "198.51.100.7")
        // All hops trusted: the leftmost is the best we know.
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: ["10.0.0.9"]) == "10.0.0.9")
        // No header, or garbage in it.
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: ["garbage, 198.51.100.7"]) == "198.51.100.7")
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: ["198.51.100.7, garbage"]) == "127.0.0.1")
        #expect(resolver.clientAddress(peer: nil, forwardedFor: ["1.1.1.1"]) == nil)
    }

    @Test("hops written with a port name their address", arguments: [
        ("198.51.100.7:41234", "198.51.100.7"), ("[2001:db8::7]:443", "2001:db8::7"), ("[2001:db8::7]", "2001:db8::7"),
        ("2001:db8::7", "2001:db8::7"),
    ])
    func hopsWithPorts(_ hop: String, _ client: String) {
        let resolver = ClientAddressResolver(trustedProxies: [CIDRBlock("127.0.0.1/32")!])
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: ["6.6.6.6, \(hop)"]) == IPAddress(client)?.description)
    }

    @Test("malformed hops stop the walk", arguments: [
        "198.51.100.7:", "198.51.100.7:99999", "198.51.100.7:80:80", "[2001:db8::7", "[2001:db8::7]x", "[2001:db8::7]:", "[198.51.100.7",
        "198.51.100.7:+80", "198.51.100.7:٨٠",
    ])
    func malformedHops(_ hop: String) {
        let resolver = ClientAddressResolver(trustedProxies: [CIDRBlock("127.0.0.1/32")!])
        #expect(resolver.clientAddress(peer: "127.0.0.1", forwardedFor: [hop]) == "127.0.0.1")
    }
}
