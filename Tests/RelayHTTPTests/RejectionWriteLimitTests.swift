@testable import RelayHTTP
import Testing

/// One sender's forgeries fill at most its own share of the rejections table.
@Suite struct RejectionWriteLimitTests {
    func admitted(_ limit: inout RejectionWriteLimit, shape: String, client: String?, epochSeconds: Int64) -> Bool {
        limit.admit(shape: shape, client: client, epochSeconds: epochSeconds)
    }

    @Test func oneShapeFromOneClientIsWrittenOnceAMinute() {
        var limit = RejectionWriteLimit()
        #expect(admitted(&limit, shape: "a", client: "203.0.113.9", epochSeconds: 600))
        #expect(!admitted(&limit, shape: "a", client: "203.0.113.9", epochSeconds: 601))
        #expect(admitted(&limit, shape: "a", client: "198.51.100.7", epochSeconds: 601))
        #expect(admitted(&limit, shape: "a", client: "203.0.113.9", epochSeconds: 660))
    }

    @Test func aFloodFromOneClientCannotCrowdOthersOut() {
        var limit = RejectionWriteLimit(perSecond: 20, perClientPerMinute: 10)
        let written = (0..<1_000).filter { limit.admit(shape: "length \($0)", client: "203.0.113.9", epochSeconds: 1_200 + Int64($0 / 100)) }
        #expect(written.count == 10)
        #expect(admitted(&limit, shape: "length 1", client: "192.0.2.1", epochSeconds: 1_205))
    }

    @Test func manyClientsTogetherStayWithinTheSecondsLimit() {
        var limit = RejectionWriteLimit(perSecond: 20, perClientPerMinute: 10)
        let written = (0..<500).filter { limit.admit(shape: "s", client: "10.0.\($0 / 250).\($0 % 250)", epochSeconds: 1_800) }
        #expect(written.count == 20)
        #expect(admitted(&limit, shape: "s", client: "10.9.9.9", epochSeconds: 1_801))
    }

    @Test func theMemoryIsBounded() {
        var limit = RejectionWriteLimit(perSecond: 1_000, perClientPerMinute: 10, memory: 3)
        #expect((0..<5).filter { limit.admit(shape: "s", client: "192.0.2.\($0)", epochSeconds: 2_400) }.count == 3)
        #expect(admitted(&limit, shape: "s", client: "192.0.2.4", epochSeconds: 2_460))
    }

    /// Issue 42, finding 8: a sender with a /64 (every IPv6 host has one) gets one client's share.
    @Test func manyAddressesInOneSlash64ShareOneLimit() {
        var limit = RejectionWriteLimit(perSecond: 1_000, perClientPerMinute: 10)
        let written = (0..<500).filter { limit.admit(shape: "length \($0)", client: "2001:db8:7:1::\(String($0, radix: 16))", epochSeconds: 3_000) }
        #expect(written.count == 10)
        #expect(admitted(&limit, shape: "length 1", client: "2001:db8:7:2::1", epochSeconds: 3_001), "the next /64 is another client")
        #expect(admitted(&limit, shape: "length 1", client: "192.0.2.1", epochSeconds: 3_001))
    }

    /// ... and one with a /48 (what a tunnel broker hands out free) gets two clients' worth.
    @Test func theSlash64sOfOneSlash48ShareAWiderLimit() {
        var limit = RejectionWriteLimit(perSecond: 1_000, perClientPerMinute: 10, perNetworkPerMinute: 20)
        let written = (0..<500).filter { limit.admit(shape: "s", client: "2001:db8:7:\(String($0, radix: 16))::1", epochSeconds: 3_600) }
        #expect(written.count == 20)
        #expect(admitted(&limit, shape: "s", client: "2001:db8:8::1", epochSeconds: 3_601), "another /48")
    }

    /// An IPv4-mapped address is the IPv4 sender; unreadable addresses share one bucket.
    @Test func mappedAndUnreadableAddressesCannotMultiplyTheShare() {
        var limit = RejectionWriteLimit(perSecond: 1_000, perClientPerMinute: 10)
        #expect((0..<20).filter { limit.admit(shape: "a\($0)", client: $0 % 2 == 0 ? "203.0.113.9" : "::ffff:203.0.113.9", epochSeconds: 4_200) }.count == 10)
        #expect((0..<20).filter { limit.admit(shape: "b\($0)", client: "garbage \($0)", epochSeconds: 4_200) }.count == 10)
    }
}
