public import Foundation

/// Parses the dates people type on command lines and in query strings:
/// `2026-11-01`, `2026-11-01T08:30:00Z`, `2026-11-01T08:30:00.250+02:00`.
public enum ISODate {
    /// A value type, so one instance serves every thread (a formatter object per call showed
    /// up once per delivery rendered).
    static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// What a refusal of a text `parse` cannot read says it must be.
    public static let expected = "an ISO 8601 date or date-time, like 2026-11-01 or 2026-11-01T08:30:00Z"

    /// `2026-11-18T11:06:40.000Z`: UTC with milliseconds, as stored deliveries and callbacks carry it.
    public static func text(_ date: Date) -> String {
        fractional.format(date)
    }

    /// An exclusive `until`: a bare date means the end of that day (`2026-11-20` includes the 20th).
    public static func parseUntil(_ text: String) -> Date? {
        guard let date = parse(text) else { return nil }
        return text.trimmingCharacters(in: .whitespaces).count == 10 ? date.addingTimeInterval(86_400) : date
    }

    /// A date as `expected` says (`ISODateScanner` has the rules), or nil. Surrounding spaces
    /// are ignored.
    public static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.utf8.count <= 64 else { return nil }
        var scanner = ISODateScanner(text[...].utf8)
        return scanner.scan().map(Date.init(timeIntervalSince1970:))
    }
}
