public import PostgresNIO

extension PostgresPreparedStatement where Row: PostgresDecodable {
    /// A statement answering one column decodes it as its `Row` (a tuple or a type of its own
    /// still says how).
    public func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode(Row.self)
    }
}
