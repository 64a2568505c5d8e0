public import Foundation

/// A daily digest's time: a time of day in a named (IANA) time zone. `next(after:)` is the
/// first such moment after a given instant, computed in the zone's own calendar so a daylight
/// saving change moves it with the clocks: 08:00 in Europe/Paris stays 08:00 there, 07:00 UTC
/// in winter and 06:00 UTC in summer. A time the clocks skip (02:30 on the night they go
/// forward) is taken as the first moment after the gap.
public struct DigestSchedule: Sendable, Equatable {
    public var hour: Int
    public var minute: Int
    public var timeZone: TimeZone

    public init(hour: Int, minute: Int, timeZone: TimeZone) {
        self.hour = hour
        self.minute = minute
        self.timeZone = timeZone
    }

    /// `HH:MM` (24-hour clock) and an IANA zone name such as `Europe/Paris` or `UTC`; nil
    /// when either is not one. Zone names are checked for their characters before Foundation
    /// reads them, so no value can name a file outside the zone database.
    public init?(at text: String, timeZone name: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute),
              let zone = Self.zone(named: name) else { return nil }
        self.init(hour: hour, minute: minute, timeZone: zone)
    }

    /// A named zone Foundation knows, or nil. Abbreviations (`CET`, `PST`) are refused: they do
    /// not say which rules apply.
    public static func zone(named name: String) -> TimeZone? {
        guard (1...64).contains(name.count), !name.contains(".."), !name.hasPrefix("/"),
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/_+-".contains($0)) }),
              name == "UTC" || name.contains("/"),
              let zone = TimeZone(identifier: name), TimeZone.knownTimeZoneIdentifiers.contains(zone.identifier) || name == "UTC"
        else { return nil }
        return zone
    }

    /// `HH:MM`, as the rules file writes it.
    public var atText: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// The first moment strictly after `date` when the zone's clocks show this time.
    public func next(after date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let wanted = DateComponents(hour: hour, minute: minute, second: 0)
        return calendar.nextDate(after: date, matching: wanted, matchingPolicy: .nextTime, repeatedTimePolicy: .first,
                                 direction: .forward)
            ?? date.addingTimeInterval(86_400)
    }
}
