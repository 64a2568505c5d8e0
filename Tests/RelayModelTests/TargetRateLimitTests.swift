import RelayModel
import Testing

/// The rate arithmetic of a target's throttle: a limit's period, and when a put-off delivery's
/// job wakes.
@Suite("Target rate limits")
struct TargetRateLimitTests {
    func limit(_ text: String) throws -> TargetRateLimit {
        try TargetRateLimit.parse(text).get()
    }

    @Test func periodsAndText() throws {
        #expect(try limit("5/s").period == .milliseconds(200))
        #expect(try limit("30/m").period == .seconds(2))
        #expect(try limit("0.5/s").period == .seconds(2))
        #expect(try limit("1000/s").period == .milliseconds(1))
        #expect(try limit("1/m").periodMicroseconds == 60_000_000)
        #expect(try limit("3/s").periodMicroseconds == 333_333)
        #expect(try limit("0.0167/m").period <= TargetRateLimit.longestPeriod)
        #expect(try limit("007/s").text == "7/s")
        #expect(try limit("2.25/s").text == "2.25/s")
        #expect(try limit("30/m").text == "30/m")
    }

    @Test func outOfBoundsAndGarbageAreNamed() {
        #expect(TargetRateLimit.parse("0/s") == .failure(.zero))
        #expect(TargetRateLimit.parse("0.000/m") == .failure(.zero))
        #expect(TargetRateLimit.parse("1000.5/s") == .failure(.tooFast))
        #expect(TargetRateLimit.parse("60001/m") == .failure(.tooFast))
        #expect(TargetRateLimit.parse("0.0002/s") == .failure(.tooSlow))
        #expect(TargetRateLimit.parse("0.016/m") == .failure(.tooSlow))
        for text in ["", "/", "5", "-1/s", "1e2/s", "nan/s", "inf/s", "５/s", "5/ｓ", "1234567890123/s", "5/m/s", "\u{0}5/s"] {
            #expect(TargetRateLimit.parse(text) == .failure(.shape), "\(text)")
        }
        #expect(TargetRateLimit(count: .nan, unit: .second) == nil)
        #expect(TargetRateLimit(count: .infinity, unit: .second) == nil)
        #expect(TargetRateLimit(count: -1, unit: .minute) == nil)
    }

    /// A put-off delivery wakes 30 to 70 % of the horizon before its appointment, never sooner
    /// than the shortest snooze nor later than the longest (less the same share).
    @Test func snoozesEndJustBeforeTheAppointment() {
        let horizon = ThrottleAnswer.horizon
        #expect(ThrottleAnswer.snooze(before: .seconds(10), jitter: 0) == .seconds(10) - horizon * 0.3)
        #expect(ThrottleAnswer.snooze(before: .seconds(10), jitter: 1) == .seconds(10) - horizon * 0.7)
        #expect(ThrottleAnswer.snooze(before: .seconds(10), jitter: 7) == .seconds(10) - horizon * 0.7)
        #expect(ThrottleAnswer.snooze(before: .seconds(10), jitter: .nan) == .seconds(10) - horizon * 0.5)
        #expect(ThrottleAnswer.snooze(before: .milliseconds(100), jitter: 0.5) == ThrottleAnswer.shortestSnooze)
        #expect(ThrottleAnswer.snooze(before: .seconds(90 * 86_400), jitter: 0.5) == ThrottleAnswer.longestSnooze - horizon * 0.5)
        // Many deliveries given one appointment by racing replicas spread over 40 % of the horizon.
        let spread = Set((0...100).map { ThrottleAnswer.snooze(before: .seconds(5), jitter: Double($0) / 100) })
        #expect(spread.count > 90)
    }

    /// The cap: an appointment hours away (booked at a mistaken slow rate) sleeps no longer than
    /// the longest snooze, 15 minutes by default or as set, so a changed limit applies within it.
    @Test func aFarAppointmentSleepsNoLongerThanTheCap() {
        let horizon = ThrottleAnswer.horizon
        #expect(ThrottleAnswer.longestSnooze == .seconds(900))
        #expect(ThrottleAnswer.snooze(before: .seconds(36_000), jitter: 0) == .seconds(900) - horizon * 0.3)
        #expect(ThrottleAnswer.snooze(before: .seconds(36_000), jitter: 1, longest: .seconds(2)) == .seconds(2) - horizon * 0.7)
        #expect(ThrottleAnswer.snooze(before: .seconds(36_000), jitter: 0.5, longest: .zero) == ThrottleAnswer.shortestSnooze)
        // Within the cap the appointment still rules.
        #expect(ThrottleAnswer.snooze(before: .seconds(60), jitter: 0, longest: .seconds(120)) == .seconds(60) - horizon * 0.3)
    }
}
