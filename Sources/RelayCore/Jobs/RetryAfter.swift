import Foundation

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

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
