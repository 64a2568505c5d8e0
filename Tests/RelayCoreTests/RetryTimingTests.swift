import Foundation
import Testing
@testable import RelayCore

@Suite("Backoff and Retry-After")
struct RetryTimingTests {
    @Test func backoffDoublesWithJitterAndCaps() {
        let backoff = Backoff(base: .seconds(1), cap: .seconds(60))
        #expect(backoff.delay(afterAttempt: 1, unit: 1) == .seconds(1))
        #expect(backoff.delay(afterAttempt: 1, unit: 0) == .milliseconds(500))
        #expect(backoff.delay(afterAttempt: 4, unit: 1) == .seconds(8))
        #expect(backoff.delay(afterAttempt: 50, unit: 1) == .seconds(60))
        #expect(backoff.delay(afterAttempt: 50, unit: 0) == .seconds(30))
        for attempt in 1...30 {
            let delay = backoff.delay(afterAttempt: attempt)
            #expect(delay > .zero && delay <= .seconds(60))
        }
    }

    @Test func retryAfterSecondsAndDates() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(RetryAfter.parse("3", now: now) == .seconds(3))
        #expect(RetryAfter.parse(" 12 ", now: now) == .seconds(12))
        #expect(RetryAfter.parse("999999", now: now) == .seconds(3600))
        #expect(RetryAfter.parse("Tue, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Tue, 14 Nov 2000 22:13:30 GMT", now: now) == .zero)
        for bad in [nil, "", "soon", "-1", "nan"] as [String?] {
            #expect(RetryAfter.parse(bad, now: now) == nil)
        }
    }

    /// The values that crashed the relay (a Double converted to Int64 before clamping) or
    /// could park work for ever: each is refused or capped, never trusted.
    @Test func hostileRetryAfterValuesAreCappedOrIgnored() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let cap = Duration.seconds(86_400)
        for ignored in ["1e300", "-1e300", "0.5", "3.7", "+5", "inf", "Infinity", "NaN", "0x10", "5s", "1,5", "１２", "\u{0}5",
                        String(repeating: "a", count: 10_000)] {
            #expect(RetryAfter.parse(ignored, now: now, maximum: cap) == nil, "\(ignored.prefix(20))")
        }
        #expect(RetryAfter.parse("99999999999999999999999999999999", now: now, maximum: cap) == cap)
        #expect(RetryAfter.parse(String(repeating: "9", count: 10_000), now: now, maximum: cap) == cap)
        #expect(RetryAfter.parse("9223372036854775807", now: now, maximum: cap) == cap)
        #expect(RetryAfter.parse("0000000000000000000000007", now: now, maximum: cap) == .seconds(7))
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: now, maximum: cap) == cap)
        #expect(RetryAfter.parse("5", now: now, maximum: .seconds(-10)) == .zero)
    }
}
