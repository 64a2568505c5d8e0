public import Foundation

/// How to count the items listed in [since, until) from the rollup of per-UTC-month and
/// per-UTC-day counts: whole months from the month rows, the whole days around them from the
/// day rows, and the parts of a day at either end from the items themselves. A nil bound is
/// unbounded. Months and days together cover `rolledUp` exactly, without overlap; `direct`
/// covers the rest of the range.
public struct ItemCountPlan: Sendable, Equatable {
    /// A half-open span of time, [from, to); nil is unbounded on that side.
    public struct Span: Sendable, Equatable {
        public var from: Date?
        public var to: Date?

        public init(from: Date?, to: Date?) {
            self.from = from
            self.to = to
        }
    }

    /// Whole UTC months, read from the month rows.
    public var months: Span?
    /// Whole UTC days before and after the months (or instead of them), read from the day rows.
    public var days: [Span] = []
    /// Months and days together: the span whose pending changes count too.
    public var rolledUp: Span?
    /// Parts of a day at either end, counted from the items.
    public var direct: [Span] = []

    public init(since: Date?, until: Date?) {
        let firstDay = since.map { Self.ceiling($0, to: .day) }
        let endDay = until.map { Self.floor($0, to: .day) }
        if let firstDay, let endDay, firstDay >= endDay {
            direct = [Span(from: since, to: until)]
            return
        }
        if let since, let firstDay, since < firstDay { direct.append(Span(from: since, to: firstDay)) }
        if let until, let endDay, endDay < until { direct.append(Span(from: endDay, to: until)) }
        rolledUp = Span(from: firstDay, to: endDay)
        let firstMonth = firstDay.map { Self.ceiling($0, to: .month) }
        let endMonth = endDay.map { Self.floor($0, to: .month) }
        if Self.before(firstMonth, endMonth) {
            months = Span(from: firstMonth, to: endMonth)
            if let firstDay, let firstMonth, firstDay < firstMonth { days.append(Span(from: firstDay, to: firstMonth)) }
            if let endDay, let endMonth, endMonth < endDay { days.append(Span(from: endMonth, to: endDay)) }
        } else {
            days = [Span(from: firstDay, to: endDay)]
        }
    }

    /// The UTC calendar the rollup's buckets are cut by (`item_count_bucket` in migration 0006).
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// A bucket's date as the rollup's `date` columns spell it: yyyy-MM-dd.
    public static func bucketText(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    static func floor(_ date: Date, to unit: Calendar.Component) -> Date {
        calendar.dateInterval(of: unit, for: date)!.start
    }

    static func ceiling(_ date: Date, to unit: Calendar.Component) -> Date {
        let start = floor(date, to: unit)
        return start == date ? date : calendar.date(byAdding: unit, value: 1, to: start)!
    }

    /// `a < b` where nil is minus infinity for `a` and plus infinity for `b`.
    static func before(_ a: Date?, _ b: Date?) -> Bool {
        guard let a, let b else { return true }
        return a < b
    }
}
