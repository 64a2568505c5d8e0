import Foundation
import RelayModel
import RelayRules
import Testing

/// A rule's quiet hours: how the key parses, and when a window holds and releases, over
/// midnight and across daylight saving changes.
@Suite("Quiet hours")
struct QuietHoursTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!

    static func date(_ text: String) -> Date { ISODate.parse(text)! }

    @Test func aWindowOverMidnightHoldsUntilItsEndInTheZone() {
        let quiet = QuietHours(from: 22 * 3_600, to: 7 * 3_600, timeZone: Self.paris)
        // 23:30 in Paris (UTC+1 in January): released at 07:00 Paris the next day.
        #expect(quiet.release(after: Self.date("2026-01-10T22:30:00Z")) == Self.date("2026-01-11T06:00:00Z"))
        // 05:00 in Paris: released at 07:00 the same day.
        #expect(quiet.release(after: Self.date("2026-01-11T04:00:00Z")) == Self.date("2026-01-11T06:00:00Z"))
        // 12:00 in Paris: outside.
        #expect(quiet.release(after: Self.date("2026-01-11T11:00:00Z")) == nil)
        #expect(quiet.release(after: Self.date("2026-01-11T06:00:00Z")) == nil, "the end itself is outside")
    }

    @Test func aWindowKeepsItsWallClockHoursAcrossDaylightSaving() {
        let quiet = QuietHours(from: 22 * 3_600, to: 7 * 3_600, timeZone: Self.paris)
        // The night of 28 to 29 March 2026 loses an hour at 02:00: 07:00 is then UTC+2.
        #expect(quiet.release(after: Self.date("2026-03-28T22:00:00Z")) == Self.date("2026-03-29T05:00:00Z"))
        // The night of 24 to 25 October 2026 gains one: 07:00 is then UTC+1 again.
        #expect(quiet.release(after: Self.date("2026-10-24T21:00:00Z")) == Self.date("2026-10-25T06:00:00Z"))
    }

    @Test func aDaytimeWindowAndSeconds() throws {
        let from = try #require(QuietHours.seconds("12:00:05"))
        let to = try #require(QuietHours.seconds("12:00:10"))
        let quiet = QuietHours(from: from, to: to, timeZone: TimeZone(identifier: "UTC")!)
        #expect(quiet.release(after: Self.date("2026-01-11T12:00:07Z")) == Self.date("2026-01-11T12:00:10Z"))
        #expect(quiet.release(after: Self.date("2026-01-11T12:00:04Z")) == nil)
    }

    @Test func theRulesFileTakesQuietHoursAndRefusesBadOnesWithTheLine() throws {
        let parser = RuleSetParser(secret: { _ in nil })
        let rules = try parser.parse("""
            rules:
              - name: night
                quiet_hours: {from: "22:00", to: "07:00", time_zone: Europe/Paris}
                notify: [{email: {to: [a@example.com], subject: s, text: t}}]
            """)
        #expect(rules.rules.first?.quietHours == QuietHours(from: 22 * 3_600, to: 7 * 3_600, timeZone: Self.paris))
        for (bad, field) in [("{from: \"25:00\", to: \"07:00\", time_zone: UTC}", "quiet_hours.from"),
                             ("{from: \"22:00\", to: \"7\", time_zone: UTC}", "quiet_hours.to"),
                             ("{from: \"22:00\", to: \"07:00\", time_zone: Mars/Olympus}", "quiet_hours.time_zone"),
                             ("{from: \"22:00\", to: \"22:00\", time_zone: UTC}", "quiet_hours"),
                             ("{from: \"22:00\", time_zone: UTC}", "quiet_hours.to"),
                             ("{from: \"22:00\", to: \"07:00\", time_zone: UTC, days: all}", "quiet_hours.days")] {
            do {
                _ = try parser.parse("""
                    rules:
                      - name: night
                        notify: [{email: {to: [a@example.com], subject: s, text: t}}]
                        quiet_hours: \(bad)
                    """)
                Issue.record("accepted \(bad)")
            } catch {
                guard let problem = error.problems.first else { Issue.record("no problem for \(bad)"); continue }
                #expect(problem.field == field, "\(bad)")
                #expect(problem.line == 4, "\(bad)")
            }
        }
    }
}

/// The shipped example parses, and only its support rule keeps quiet hours.
@Suite("Quiet hours example")
struct QuietHoursExampleTests {
    @Test func theShippedExampleParses() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("deploy/rules/quiet-hours.yaml").path
        let rules = try RuleSetParser(secret: { _ in "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }).parse(String(contentsOfFile: path, encoding: .utf8))
        #expect(rules.rules.map(\.name) == ["support-mail", "on-call", "partner-results"])
        #expect(rules.rules.map { $0.quietHours != nil } == [true, false, false])
    }
}
