public import Foundation

/// A rule's quiet hours: from `from` until `to` each day, in a named time zone, its deliveries
/// are held and released when the window ends. A window whose `from` is later than its `to`
/// runs over midnight (22:00 to 07:00). Times are wall-clock times in the zone, so a window
/// keeps its hours across daylight saving changes.
public struct QuietHours: Sendable, Equatable {
    /// Seconds since local midnight.
    public var from: Int
    public var to: Int
    public var timeZone: TimeZone

    public init(from: Int, to: Int, timeZone: TimeZone) {
        self.from = from
        self.to = to
        self.timeZone = timeZone
    }

    /// `HH:MM` or `HH:MM:SS` (24-hour) as seconds since midnight; nil for anything else.
    public static func seconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes) else { return nil }
        let secs = parts.count == 3 ? Int(parts[2]) : 0
        guard let secs, (0..<60).contains(secs) else { return nil }
        return hours * 3_600 + minutes * 60 + secs
    }

    /// When the window that holds `now` ends (its deliveries are released then); nil when `now`
    /// is outside the window.
    public func release(after now: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        let time = (parts.hour ?? 0) * 3_600 + (parts.minute ?? 0) * 60 + (parts.second ?? 0)
        let inside = from < to ? (from <= time && time < to) : (time >= from || time < to)
        guard inside else { return nil }
        // Today's end, or tomorrow's when the window started today and runs over midnight.
        let dayOffset = from > to && time >= from ? 1 : 0
        var end = DateComponents()
        end.year = parts.year
        end.month = parts.month
        end.day = (parts.day ?? 1) + dayOffset
        end.hour = to / 3_600
        end.minute = to % 3_600 / 60
        end.second = to % 60
        guard let date = calendar.date(from: end), date > now else { return now.addingTimeInterval(60) }
        return date
    }

    /// As the rules file writes it.
    public var description: String {
        func text(_ seconds: Int) -> String {
            let base = String(format: "%02d:%02d", seconds / 3_600, seconds % 3_600 / 60)
            return seconds % 60 == 0 ? base : base + String(format: ":%02d", seconds % 60)
        }
        return "\(text(from))–\(text(to)) \(timeZone.identifier)"
    }
}
