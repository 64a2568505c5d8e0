import Testing
@testable import RelayModel

/// Issue 42, finding 8: which sender an address counts as for limits per client.
@Suite struct ClientBucketTests {
    @Test func ipv4CountsByAddress() {
        #expect(ClientBucket("203.0.113.9").client == "203.0.113.9")
        #expect(ClientBucket("203.0.113.9").network == nil)
        #expect(ClientBucket("203.0.113.9") != ClientBucket("203.0.113.10"))
    }

    @Test func everyAddressOfOneSlash64IsOneClient() {
        let buckets = Set((0..<200).map { ClientBucket("2001:db8:1:2:\(String($0, radix: 16)):ffff:1234:\(String($0 * 7, radix: 16))") })
        #expect(buckets.count == 1)
        #expect(buckets.first?.client == "2001:db8:1:2::/64")
        #expect(buckets.first?.network == "2001:db8:1::/48")
        #expect(ClientBucket("2001:db8:1:3::1").client == "2001:db8:1:3::/64")
        #expect(ClientBucket("2001:db8:1:3::1").network == "2001:db8:1::/48")
        #expect(ClientBucket("[2001:DB8:1:2::abcd]").client == "2001:db8:1:2::/64")
    }

    @Test func addressesCarryingAnIPv4AddressCountAsIt() {
        #expect(ClientBucket("::ffff:198.51.100.7").client == "198.51.100.7")
        #expect(ClientBucket("::ffff:c633:6407").client == "198.51.100.7")
        #expect(ClientBucket("2002:c633:6407:1::1").client == "198.51.100.7")
        #expect(ClientBucket("2002:c633:6407:ffff::9").client == "198.51.100.7")
        #expect(ClientBucket("64:ff9b::c633:6407").client == "198.51.100.7")
    }

    @Test func aZoneIDIsDropped() {
        #expect(ClientBucket("fe80::1%eth0").client == "fe80:0:0:0::/64")
        #expect(ClientBucket("fe80::2%eth1") == ClientBucket("fe80::1%eth0"))
    }

    @Test(arguments: [nil, "", "unix", "not an address", "10.0.0.1%x", "1.2.3.4.5", "::g", "2001:db8::1::2", String(repeating: "1", count: 5_000)])
    func anythingElseSharesOneBucket(_ text: String?) {
        #expect(ClientBucket(text).client == ClientBucket.unreadable)
        #expect(ClientBucket(text).network == nil)
    }
}
