/// Where a reader of the change feed is: after the transition `id` written by transaction
/// `transaction` (PostgreSQL's 64-bit transaction ID; 0 for transitions recorded before the
/// feed existed). Its text, `<transaction>.<id>`, is what the API and `changes follow` hand out
/// and take back. Pure.
public struct ChangeCursor: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var transaction: UInt64
    public var id: Int64

    /// Before every transition.
    public static let start = ChangeCursor(transaction: 0, id: 0)

    public init(transaction: UInt64, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    public var description: String { "\(transaction).\(id)" }

    public static func < (lhs: ChangeCursor, rhs: ChangeCursor) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }

    /// A cursor whose transaction this database has not reached: it was given out before the
    /// database was restored from a backup or replaced. Reading on from it could skip every
    /// transition since, so it is refused.
    public struct Ahead: Error, Equatable, CustomStringConvertible {
        public init() {}
        public var description: String {
            "this cursor is ahead of the database (it was restored from a backup or replaced since the cursor was given out): "
                + "read again from the start (leave `after` out) and skip the transitions you already have"
        }
    }

    /// Why a text is not a cursor.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String {
            "not a change feed cursor: pass back a next_cursor (two numbers joined by a dot), or leave it out to start from the first change"
        }
    }

    /// Two runs of ASCII digits joined by one dot, at most 19 and 18 of them (so that every
    /// such text is a cursor, as the OpenAPI document's pattern says: a transaction ID fits 64
    /// bits unsigned, a transition ID 63); nothing else.
    public static func parse(_ text: String) throws(Invalid) -> ChangeCursor {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 19, parts[1].count <= 18,
              parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
              let transaction = UInt64(String(decoding: parts[0], as: UTF8.self)),
              let id = Int64(String(decoding: parts[1], as: UTF8.self)) else {
            throw Invalid()
        }
        return ChangeCursor(transaction: transaction, id: id)
    }
}
