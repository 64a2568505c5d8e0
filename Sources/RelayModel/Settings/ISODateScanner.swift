/// Reads an RFC 3339 date-time (`2026-11-01T08:30:00Z`, `2026-11-01T08:30:00.250+02:00`) or a
/// bare date (`2026-11-01`, midnight UTC) as seconds since 1970, without Foundation: a v2 item
/// carries its times as such text, and every reconcile read two of them. Through
/// ISO8601DateFormatter, which builds an ICU formatter each time, that parsing was a fifth of
/// the relay's CPU in the notify benchmark.
///
/// Strict where the formatter was lenient, since a date it guessed at is a wrong date stored
/// in silence: the text must be all of the date (no trailing characters), a calendar day
/// (`2026-02-30` is refused, where the formatter gave the 2nd of March), two-digit fields,
/// hours 00–23, and an offset of `Z` or ±hh:mm, ±hhmm or ±hh up to 23:59. `T`/`Z` may be
/// lower case (RFC 3339 allows it). Fractions keep microseconds, PostgreSQL's precision.
struct ISODateScanner {
    private let bytes: [UInt8]
    private var at = 0

    init(_ text: Substring.UTF8View) {
        bytes = Array(text)
    }

    /// Seconds since 1970, or nil when the text is not one of the forms above.
    mutating func scan() -> Double? {
        guard let year = digits(4), byte(UInt8(ascii: "-")), let month = digits(2), byte(UInt8(ascii: "-")),
              let day = digits(2), (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day)
        else { return nil }
        let midnight = Double(Self.daysSince1970(year: year, month: month, day: day)) * 86_400
        if at == bytes.count { return midnight }
        guard byte(UInt8(ascii: "T")) || byte(UInt8(ascii: "t")),
              let hour = digits(2), byte(UInt8(ascii: ":")), let minute = digits(2), byte(UInt8(ascii: ":")),
              let second = digits(2), hour < 24, minute < 60, second < 60
        else { return nil }
        var micros = 0
        if byte(UInt8(ascii: ".")) {
            var scale = 100_000, count = 0
            while let digit = digit() {
                micros += digit * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }
        guard let offset = offsetSeconds(), at == bytes.count else { return nil }
        return midnight + Double(hour * 3_600 + minute * 60 + second - offset) + Double(micros) / 1_000_000
    }

    /// `Z`, or ±hh[:mm] / ±hhmm as seconds east of UTC.
    private mutating func offsetSeconds() -> Int? {
        if byte(UInt8(ascii: "Z")) || byte(UInt8(ascii: "z")) { return 0 }
        let sign: Int
        if byte(UInt8(ascii: "+")) { sign = 1 } else if byte(UInt8(ascii: "-")) { sign = -1 } else { return nil }
        guard let hours = digits(2), hours < 24 else { return nil }
        var minutes = 0
        if at < bytes.count {
            _ = byte(UInt8(ascii: ":"))
            guard let read = digits(2), read < 60 else { return nil }
            minutes = read
        }
        return sign * (hours * 3_600 + minutes * 60)
    }

    private mutating func byte(_ expected: UInt8) -> Bool {
        guard at < bytes.count, bytes[at] == expected else { return false }
        at += 1
        return true
    }

    private mutating func digit() -> Int? {
        guard at < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) else { return nil }
        defer { at += 1 }
        return Int(bytes[at] - UInt8(ascii: "0"))
    }

    private mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
