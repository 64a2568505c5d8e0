import RelayModel
import Testing

@Suite("Retry schedule and callback address policy")
struct DeliveryPolicyTests {
    @Test func scheduleParsesUnitsAndJitters() throws {
        let schedule = RetrySchedule.standard
        #expect(schedule.delays.count == 9 && schedule.maxAttempts == 10)
        #expect(RetrySchedule(parsing: schedule.description) == schedule, "the description reads back")
        #expect(schedule.delay(afterAttempt: 1, unit: 0) == .seconds(4))
        #expect(schedule.delay(afterAttempt: 1, unit: 0.5) == .seconds(5))
        #expect(schedule.delay(afterAttempt: 1, unit: 0.999_999)! < .seconds(6))
        #expect(schedule.delay(afterAttempt: 9, unit: 0.5) == .seconds(86_400))
        #expect(schedule.delay(afterAttempt: 10, unit: 0.5) == nil, "spent: the delivery is dead")
        #expect(RetrySchedule(parsing: "100ms, 2s,1m,1h,1d")?.delays == [.milliseconds(100), .seconds(2), .seconds(60), .seconds(3600), .seconds(86_400)])
        for bad in ["", "5", "5x", "-1s", "1s,,2s", "ms", "1.5s"] {
            #expect(RetrySchedule(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func restrictedAddresses() {
        let expected: [(String, String?)] = [
            ("127.0.0.1", "loopback"), ("::1", "loopback"), ("10.1.2.3", "private"), ("172.16.0.1", "private"),
            ("172.32.0.1", nil), ("192.168.1.1", "private"), ("169.254.169.254", "link-local"), ("fe80::1", "link-local"),
            ("fd00::1", "private"), ("0.0.0.0", "unspecified"), ("100.64.0.1", "shared (carrier-grade NAT)"),
            ("::ffff:127.0.0.1", "loopback"), ("8.8.8.8", nil), ("2606:4700::1111", nil), ("224.0.0.1", "multicast"),
            // Issue 10, defect 8: ranges a deny-list missed; only global unicast passes now.
            ("64:ff9b::a00:1", "NAT64"), ("::a00:1", "IPv4-compatible"), ("2002:a00:1::1", "6to4 (embeds an IPv4 address)"),
            ("192.0.0.1", "IETF protocol assignment"), ("198.18.0.1", "benchmarking"), ("198.19.255.255", "benchmarking"),
            ("168.63.129.16", "cloud platform service (Azure wire server)"), ("2001:db8::1", "documentation"),
            ("2001::1", "IETF protocol assignment (Teredo and others)"), ("100::1", "not global unicast"),
            ("::ffff:10.0.0.1", "private"), ("255.255.255.255", "reserved"), ("1.1.1.1", nil), ("2a00:1450::1", nil),
        ]
        for (text, scope) in expected {
            #expect(IPAddress(text)?.restrictedScope == scope, "\(text)")
        }
    }

    /// A leading zero is octal to C's resolver (`012.0.0.1` is 10.0.0.1): not an address here,
    /// so it goes to the resolver and is vetted as what the connection would reach.
    @Test func ambiguousIPv4LiteralsAreNotAddresses() {
        for text in ["012.0.0.1", "127.000.0.1", "0127.0.0.1", "1.2.3.04", "127.1", "0x7f.0.0.1", "2130706433", "1.2.3.4.5", "256.1.1.1"] {
            #expect(IPAddress(text) == nil, "\(text)")
        }
        #expect(IPAddress("10.0.0.1")?.description == "10.0.0.1")
        #expect(IPAddress("0.0.0.0")?.description == "0.0.0.0")
    }
}
