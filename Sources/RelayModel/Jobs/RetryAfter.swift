public import Foundation

/// Reads an HTTP `Retry-After` value as RFC 9110 defines it: delay-seconds (digits only) or
/// an HTTP-date (IMF-fixdate). Anything else (a sign, a fraction, an exponent, garbage) is
/// ignored. The result is bounded by `maximum`, so a hostile or broken server can neither
/// crash the relay with a huge number nor park work for days. No value passes through a
/// floating-point conversion.
public enum RetryAfter {
    public static func parse(_ value: String?, now: Date = Date(), maximum: Duration = .seconds(3600)) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        let cap = max(maximum, .zero)
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // More digits than a bounded wait could need: the cap. Leading zeros are allowed.
            let significant = value.drop { $0 == "0" }
            guard significant.count <= 12, let seconds = Int64(significant.isEmpty ? "0" : String(significant)) else { return cap }
            return min(.seconds(seconds), cap)
        }
        guard value.utf8.count <= 64, let date = httpDate(value) else { return nil }
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return nil }
        if seconds <= 0 { return .zero }
        let capSeconds = Double(cap.components.seconds)
        return seconds >= capSeconds ? cap : .milliseconds(Int64(seconds * 1000))
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), read byte by byte. Foundation's
    /// DateFormatter traps on text holding characters that are longer in UTF-8 than in UTF-16
    /// (the retry-after fuzz target found one): a partner's header must never reach it. The
    /// weekday must be one of the seven names but is not checked against the date.
    static func httpDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
              bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20,
              bytes[26...] == Array("GMT".utf8)[...],
              weekdays.contains(Array(bytes[0..<3])),
              let month = months.firstIndex(of: Array(bytes[8..<11])),
              let day = number(bytes[5..<7]), let year = number(bytes[12..<16]),
              let hour = number(bytes[17..<19]), let minute = number(bytes[20..<22]), let second = number(bytes[23..<25]),
              (1...daysIn(month: month + 1, year: year)).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let days = daysSinceEpoch(year: year, month: month + 1, day: day)
        return Date(timeIntervalSince1970: TimeInterval(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    /// ASCII digits only.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
