import Foundation

/// Reads an HTTP `Retry-After` value: delta seconds, or an HTTP date. Bounded so a hostile
/// or broken server cannot park work for days.
public enum RetryAfter {
    public static func parse(_ value: String?, now: Date = Date(), maximum: Duration = .seconds(3600)) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Double(value), seconds.isFinite, seconds >= 0 {
            return min(.milliseconds(Int64(seconds * 1000)), maximum)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return min(.milliseconds(Int64(seconds * 1000)), maximum)
    }
}
