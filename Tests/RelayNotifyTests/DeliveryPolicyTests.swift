import RelayCore
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
        ]
        for (text, scope) in expected {
            #expect(IPAddress(text)?.restrictedScope == scope, "\(text)")
        }
    }
}
