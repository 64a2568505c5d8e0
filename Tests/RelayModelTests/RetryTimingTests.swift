import Foundation
import Testing
@testable import RelayModel

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

    /// Found by the retry-after fuzz target (issue 27's fuzz run): Foundation's DateFormatter
    /// traps (an incorrect CFRange) on a date holding a character longer in UTF-8 than in
    /// UTF-16, so a partner's Retry-After header could crash the worker. HTTP-dates are ASCII;
    /// they are now read without DateFormatter, strictly.
    @Test func nonASCIIOrMalformedHTTPDatesAreIgnoredWithoutACrash() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        for bad in ["Wed, 21\u{730}ct 2015 07:28:p GMT", "Wed, 21 Oct 2015 07:28:00 GMT\u{730}", "Wed, ２1 Oct 2015 07:28:00 GMT",
                    "Wed, 21 Oct 2015 07:28:00 UTC", "Wed, 32 Oct 2015 07:28:00 GMT", "Wed, 21 Okt 2015 07:28:00 GMT",
                    "Wed, 21 Oct 2015 24:00:00 GMT", "Wed, 21 Oct 2015 07:60:00 GMT", "Wed, 21 Oct 2015 07:28:61 GMT",
                    "Wed, 31 Feb 2015 07:28:00 GMT", "Wed,21 Oct 2015 07:28:00 GMT", "Xyz, 21 Oct 2015 07:28:00 GMT",
                    "Wed, 21 Oct 15 07:28:00 GMT", "Wed, +1 Oct 2015 07:28:00 GMT", "Wed, 21 Oct 2015 07:28:00 GMT extra"] {
            #expect(RetryAfter.parse(bad, now: now) == nil, "\(bad)")
        }
        // A leap day, and the weekday is not checked against the date (RFC 9110 does not ask it).
        #expect(RetryAfter.parse("Thu, 29 Feb 2024 00:00:00 GMT", now: Date(timeIntervalSince1970: 1_709_164_790)) == .seconds(10))
        #expect(RetryAfter.parse("Mon, 14 Nov 2023 22:13:30 GMT", now: now) == .seconds(10))
    }

    /// The same Foundation trap in ISO8601DateFormatter: dates people type and Entrupy's item
    /// timestamps are read only when they are ASCII.
    @Test func nonASCIIISODatesAreRefusedWithoutACrash() {
        for bad in ["2026-11-0\u{730}", "2026-11-01T08:30:00\u{730}Z", "２０２６-11-01", "2026-11-01T08:30:00.250+02:0\u{730}"] {
            #expect(ISODate.parse(bad) == nil, "\(bad)")
        }
        #expect(ISODate.parse("2026-11-01") != nil)
        #expect(ISODate.parse("2026-11-01T08:30:00.250+02:00") != nil)
    }
}
