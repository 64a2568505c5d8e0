public import RelayModel

/// Every list the API answers, shaped one way: the rows under the list's name, then
/// `next_cursor` (null on the last page). Pages that count add `item_count`, `total_count`
/// and `total_count_exact`; a count-only answer is `total_count` alone.
public struct APIPage<Row: Encodable & Sendable>: Encodable, Sendable {
    public struct Counts: Sendable {
        public var total: Int
        public var exact: Bool
        public var only: Bool
    }

    public let name: String
    public let rows: [Row]
    public let nextCursor: PageCursor?
    public let counts: Counts?

    public init(_ name: String, rows: [Row], nextCursor: PageCursor?, counts: Counts? = nil) {
        self.name = name
        self.rows = rows
        self.nextCursor = nextCursor
        self.counts = counts
    }

    /// A page of an ID-ordered list fetched with `limit + 1` rows (see `PageCursor.page`).
    public init<Stored>(_ name: String, fetched: [Stored], limit: Int, id: (Stored) -> Int64, row: (Stored) -> Row) {
        let (shown, next) = PageCursor.page(fetched, limit: limit, id: id)
        self.init(name, rows: shown.map(row), nextCursor: next)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        if let counts {
            try c.encode(counts.total, forKey: Key("total_count"))
            if counts.only { return }
            try c.encode(rows.count, forKey: Key("item_count"))
            try c.encode(counts.exact, forKey: Key("total_count_exact"))
        }
        try c.encode(rows, forKey: Key(name))
        try c.encode(AlwaysPresent(wrappedValue: nextCursor?.text), forKey: Key("next_cursor"))
    }
}
