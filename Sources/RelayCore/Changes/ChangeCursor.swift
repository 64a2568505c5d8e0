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

    /// Why a text is not a cursor.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String {
            "not a change feed cursor: pass back a next_cursor (two numbers joined by a dot), or leave it out to start from the first change"
        }
    }

    /// Two runs of ASCII digits joined by one dot, each a number in range (a transaction ID
    /// fits 64 bits unsigned, a transition ID is positive or 0); nothing else.
    public static func parse(_ text: String) throws(Invalid) -> ChangeCursor {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 20 && $0.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
              let transaction = UInt64(String(decoding: parts[0], as: UTF8.self)),
              let id = Int64(String(decoding: parts[1], as: UTF8.self)) else {
            throw Invalid()
        }
        return ChangeCursor(transaction: transaction, id: id)
    }
}
