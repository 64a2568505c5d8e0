public import PostgresNIO

/// A row's cells decoded one at a time, in order. The hot paths read rows this way instead of
/// `row.decode((A, B, ...).self)`, whose parameter pack looks up its tuple's metadata at run
/// time on every row: in a profile of the queue draining no-op jobs that lookup was a
/// noticeable share of the worker's CPU.
public struct PostgresRowCells {
    private var iterator: PostgresRow.Iterator

    public init(_ row: PostgresRow) {
        iterator = row.makeIterator()
    }

    /// The next cell as `T`; throws when the row has no more cells or the cell is not a `T`.
    public mutating func next<T: PostgresDecodable>(_: T.Type = T.self) throws -> T {
        guard let cell = iterator.next() else { throw PostgresRowCellsError.missingColumn }
        return try cell.decode(T.self)
    }
}

/// A statement returned fewer columns than its reader expects.
public enum PostgresRowCellsError: Error, CustomStringConvertible {
    case missingColumn
    public var description: String { "the row has fewer columns than expected" }
}
