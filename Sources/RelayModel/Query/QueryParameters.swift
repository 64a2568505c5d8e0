public import Foundation

/// A query string's pairs, checked against the names a route knows (a misspelt filter is an
/// error, not silently ignored), with typed readers that name the parameter when they fail.
public struct QueryParameters: Sendable {
    public static let maxValueLength = 256
    public static let maxValuesPerName = 50

    let pairs: [(name: String, value: String)]

    public init(_ pairs: [(String, String)], allowed: Set<String>) throws(QueryParameterError) {
        for (name, _) in pairs where !allowed.contains(name) {
            let known = allowed.sorted().joined(separator: ", ")
            throw QueryParameterError(String(name.prefix(64)), "unknown parameter; known: \(known)")
        }
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Every value given for `name` (the parameter may repeat): non-empty, bounded.
    public func values(_ name: String) throws(QueryParameterError) -> [String] {
        let values = pairs.filter { $0.name == name }.map(\.value)
        if values.count > Self.maxValuesPerName {
            throw QueryParameterError(name, "at most \(Self.maxValuesPerName) values")
        }
        for value in values {
            if value.isEmpty { throw QueryParameterError(name, "must not be empty") }
            if value.count > Self.maxValueLength { throw QueryParameterError(name, "at most \(Self.maxValueLength) characters") }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw QueryParameterError(name, "must not contain control characters")
            }
        }
        return values
    }

    /// The value of a parameter that may appear at most once.
    public func single(_ name: String) throws(QueryParameterError) -> String? {
        let values = try values(name)
        if values.count > 1 { throw QueryParameterError(name, "may be given only once") }
        return values.first
    }

    public func integer(_ name: String, in range: ClosedRange<Int>) throws(QueryParameterError) -> Int? {
        guard let text = try single(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw QueryParameterError(name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// An ISO 8601 date (`2026-11-01`) or date-time (`2026-11-01T08:30:00Z`).
    /// A time as people give it: an ISO 8601 date-time, a date, or epoch seconds (Unix time,
    /// fractions allowed, 0 to the year 9999). `endOfDay` (for an exclusive `until`) makes a
    /// bare date mean the end of that day, so `until=2026-11-20` includes the 20th.
    public func date(_ name: String, endOfDay: Bool = false) throws(QueryParameterError) -> Date? {
        guard let text = try single(name) else { return nil }
        if let seconds = Self.epochSeconds(text) { return Date(timeIntervalSince1970: seconds) }
        guard let date = endOfDay ? ISODate.parseUntil(text) : ISODate.parse(text) else {
            throw QueryParameterError(name, "must be \(ISODate.expected), or epoch seconds")
        }
        return date
    }

    /// Digits with at most one decimal point, within 0 and the year 9999: nothing a float
    /// conversion could turn into an infinity or an exponent.
    static func epochSeconds(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 20,
              trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              trimmed.filter({ $0 == "." }).count <= 1, trimmed.first != ".", trimmed.last != ".",
              let value = Double(trimmed), value.isFinite, value >= 0, value <= EntrupyItemParser.latestEpoch else { return nil }
        return value
    }

    /// Every value of a parameter that may repeat, each one of `choices`.
    public func values(_ name: String, in choices: [String]) throws(QueryParameterError) -> [String] {
        let values = try values(name)
        for value in values where !choices.contains(value) {
            throw QueryParameterError(name, "must be one of \(choices.joined(separator: ", ")), not \"\(value)\"")
        }
        return values
    }

    /// Every value of `name` read as one of an enum's cases (its raw values are the choices).
    public func values<Choice: RawRepresentable & CaseIterable>(_ name: String, as type: Choice.Type) throws(QueryParameterError) -> [Choice]
    where Choice.RawValue == String {
        try values(name, in: Choice.allCases.map(\.rawValue)).compactMap(Choice.init(rawValue:))
    }

    /// The single value of `name` read as one of an enum's cases.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, as type: Choice.Type) throws(QueryParameterError) -> Choice?
    where Choice.RawValue == String {
        try choice(name, in: Choice.allCases.map(\.rawValue)).flatMap(Choice.init(rawValue:))
    }

    /// Refuses a time range that ends before it starts (`until` is exclusive, so equal is empty too).
    public static func checkOrder(since: Date?, until: Date?) throws(QueryParameterError) {
        if let since, let until, until <= since { throw QueryParameterError("until", "must be later than since") }
    }

    public func choice(_ name: String, in choices: [String]) throws(QueryParameterError) -> String? {
        guard let value = try single(name) else { return nil }
        guard choices.contains(value) else {
            throw QueryParameterError(name, "must be one of \(choices.joined(separator: ", "))")
        }
        return value
    }

    /// A `PageCursor` of a list ordered by time (`timed`) or by numeric ID (not `timed`);
    /// another list's cursor is refused rather than misread.
    public func cursor(timed: Bool, _ name: String = "cursor") throws(QueryParameterError) -> PageCursor? {
        guard let text = try single(name) else { return nil }
        guard let cursor = PageCursor(text: text) else {
            throw QueryParameterError(name, "is not a cursor this server gave out; start again without it")
        }
        guard timed ? cursor.time != nil : cursor.id != nil else {
            throw QueryParameterError(name, "is not a cursor of this list; start again without it")
        }
        return cursor
    }
}
