import Foundation
import RelayModel
import Testing

/// The dates people type and Entrupy's v2 items carry, read without Foundation's formatter.
@Suite("ISO 8601 dates")
struct ISODateTests {
    @Test(arguments: [
        ("2026-11-01", 1_793_491_200.0),
        (" 2026-11-01 ", 1_793_491_200.0),
        ("2026-11-01T08:30:00Z", 1_793_521_800.0),
        ("2026-11-01t08:30:00z", 1_793_521_800.0),
        ("2026-11-01T08:30:00.250+02:00", 1_793_514_600.25),
        ("2026-11-01T08:30:00+0200", 1_793_514_600.0),
        ("2026-11-01T08:30:00+02", 1_793_514_600.0),
        ("2026-11-01T08:30:00-05:30", 1_793_541_600.0),
        ("2026-11-01T08:30:00-00:00", 1_793_521_800.0),
        ("2026-11-01T08:30:00.1Z", 1_793_521_800.1),
        ("2026-11-01T08:30:00.123456Z", 1_793_521_800.123456),
        ("2026-11-01T08:30:00.1234569999Z", 1_793_521_800.123456),
        ("1970-01-01T00:00:00Z", 0),
        ("1969-12-31T23:59:59.999Z", -0.001),
        ("2024-02-29", 1_709_164_800),
        ("2000-02-29T12:00:00Z", 951_825_600),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
    ])
    func readsEveryForm(text: String, epoch: Double) throws {
        let date = try #require(ISODate.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - epoch) < 0.000_001, "\(text): \(date.timeIntervalSince1970)")
    }

    /// What ISO8601DateFormatter guessed at (the 30th of February as the 2nd of March, an
    /// offset of +25:00, text after the date) is refused, as is anything not quite a date.
    @Test(arguments: [
        "", "2026", "2026-11", "2026-11-1", "2026-1-01", "20261101", "20261101T083000Z", "+2026-11-01", "12026-11-01",
        "2026-02-30", "2023-02-29", "2026-13-01", "2026-00-10", "2026-11-00", "2026-11-31",
        "2026-11-01T", "2026-11-01 08:30:00Z", "2026-11-01T08:30:00", "2026-11-01T08:30Z", "2026-11-01T8:30:00Z",
        "2026-11-01T08:3:00Z", "2026-11-01T24:00:00Z", "2026-11-01T23:60:00Z", "2026-11-01T23:59:60Z",
        "2026-11-01T08:30:00.Z", "2026-11-01T08:30:00,5Z", "2026-11-01T08:30:00.-5Z", "2026-11-01T08:30:00.250",
        "2026-11-01T08:30:00 Z", "2026-11-01T08:30:00Zjunk", "2026-11-01junk", "2026-11-01T08:30:00UTC",
        "2026-11-01T08:30:00+25:00", "2026-11-01T08:30:00+02:60", "2026-11-01T08:30:00+2:00", "2026-11-01T08:30:00+02:00:00",
        "2026-11-01T08:30:00+02:0", "2026-11-01T08:30:00+", "2026-W44-1", "2026-305", "２０２６-11-01", "2026-11-01T08:30:00.5\u{0}Z",
        String(repeating: "9", count: 100_000),
    ])
    func refusesWhatIsNotQuiteADate(text: String) {
        #expect(ISODate.parse(text) == nil, "\(text.prefix(60))")
    }

    /// Any instant Foundation writes, at any offset in use (±14 h), is read back. From 1600 on:
    /// before the Gregorian reform Foundation writes Julian calendar dates, where ISO 8601
    /// (and this reader, and PostgreSQL) count proleptic Gregorian ones.
    @Test func readsWhatFoundationWrites() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let micros = Int64.random(in: -11_676_096_000_000_000...253_402_300_799_000_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(micros) / 1_000_000)
            let zone = try #require(TimeZone(secondsFromGMT: 60 * Int.random(in: -(14 * 60)...(14 * 60), using: &generator)))
            let text = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: zone))
            let read = try #require(ISODate.parse(text), "\(text)")
            // The style writes milliseconds: the instant read is the written one to within one (and a double's rounding).
            #expect(abs(read.timeIntervalSince1970 - date.timeIntervalSince1970) < 0.0011, "\(text): \(read.timeIntervalSince1970) vs \(date.timeIntervalSince1970)")
        }
    }

    @Test func aBareUntilIncludesItsDay() {
        #expect(ISODate.parseUntil("2026-11-20") == ISODate.parse("2026-11-21"))
        #expect(ISODate.parseUntil("2026-11-20T10:00:00Z") == ISODate.parse("2026-11-20T10:00:00Z"))
    }
}
