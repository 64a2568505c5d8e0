import Foundation

/// Where the next page starts: the last row's sort key. Opaque to callers (base64url of a
/// small JSON object), exact (time in integer microseconds, as PostgreSQL keeps it), and a
/// position rather than an offset, so rows arriving meanwhile neither repeat nor skip others.
public struct PageCursor: Sendable, Equatable {
    /// Microseconds since 1970 of the last row's sort time, when the order has one.
    public var time: Int64?
    /// The last row's unique key (an Entrupy ID, or a numeric ID as text).
    public var key: String

    public init(time: Int64? = nil, key: String) {
        self.time = time
        self.key = key
    }

    public init?(text: String) {
        guard text.count <= 2048, let bytes = Base64Bytes.decode(text), let json = try? JSONValue.parse(bytes),
              let key = json["k"]?.stringValue, !key.isEmpty, key.utf8.count <= 512,
              !key.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        switch json["t"] {
        case nil, .null?: time = nil
        case .number(let value)?:
            // Within years 0 to 9999, so PostgreSQL's interval arithmetic cannot overflow on it.
            guard let micros = value.int64, abs(micros) <= 253_402_300_800_000_000 else { return nil }
            time = micros
        default: return nil
        }
        self.key = key
    }

    public var text: String {
        var object: [String: JSONValue] = ["k": .string(key)]
        if let time { object["t"] = .number(JSONNumber(time)) }
        return Base64Bytes.encodeURLSafe(Array(JSONValue.object(object).jsonText.utf8))
    }

    /// Splits the rows of an ID-ordered list, fetched with `limit + 1`, into the page shown and
    /// the cursor after it (nil when there is nothing after it).
    public static func page<Row>(_ rows: [Row], limit: Int, id: (Row) -> Int64) -> (shown: [Row], next: PageCursor?) {
        page(rows, limit: limit, cursor: { PageCursor(key: String(id($0))) })
    }

    /// The same for any order: `cursor` gives the position after a row.
    public static func page<Row>(_ rows: [Row], limit: Int, cursor: (Row) -> PageCursor) -> (shown: [Row], next: PageCursor?) {
        let shown = Array(rows.prefix(limit))
        let next = rows.count > limit ? shown.last.map(cursor) : nil
        return (shown, next)
    }

    /// The numeric key of an ID-ordered list, if it is one.
    public var id: Int64? { time == nil ? Int64(key) : nil }
}
