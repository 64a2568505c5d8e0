/// Where a reader of the change feed is: after the transition `id` written by transaction
/// `transaction` (PostgreSQL's 64-bit transaction ID; 0 for transitions recorded before the
/// feed existed or renumbered after a restore), in the database history `history`
/// (`ChangeFeedHistory`). Its text, `<system>.<timeline>.<transaction>.<id>`, is what the API
/// and `changes follow` hand out and take back. Cursors given out before histories existed,
/// `<transaction>.<id>`, are still read (`history` nil): the feed checks them by what they point
/// at only, and the pages it answers carry the history. Pure.
public struct ChangeCursor: Sendable, Equatable, Comparable, CustomStringConvertible {
    public var transaction: UInt64
    public var id: Int64
    /// Nil in a cursor of the old form, and in `start` (which is the start of every history).
    public var history: ChangeFeedHistory?

    /// Before every transition.
    public static let start = ChangeCursor(transaction: 0, id: 0)

    public init(transaction: UInt64, id: Int64, history: ChangeFeedHistory? = nil) {
        self.transaction = transaction
        self.id = id
        self.history = history
    }

    /// Before every transition, in whichever history.
    public var isStart: Bool { transaction == 0 && id == 0 }

    public var description: String {
        guard let history else { return "\(transaction).\(id)" }
        return "\(history).\(transaction).\(id)"
    }

    /// The feed's order within one history.
    public static func < (lhs: ChangeCursor, rhs: ChangeCursor) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }

    /// Why a text is not a cursor.
    public struct Invalid: Error, Equatable, CustomStringConvertible {
        public var description: String {
            "not a change feed cursor: pass back a cursor or next_cursor as the feed gave it, or leave it out to start from the first change"
        }
    }

    /// Four runs of ASCII digits joined by dots (system identifier, timeline, transaction ID,
    /// transition ID: at most 20, 10, 19 and 18 of them, and each must fit 64 bits unsigned,
    /// 32 unsigned, 64 unsigned and 63), or the old form's last two; nothing else. Hostile text
    /// of any length is refused without being copied.
    public static func parse(_ text: String) throws(Invalid) -> ChangeCursor {
        let parts = text.utf8.split(separator: UInt8(ascii: "."), maxSplits: 4, omittingEmptySubsequences: false)
        let limits = parts.count == 4 ? [20, 10, 19, 18] : [19, 18]
        guard parts.count == limits.count,
              zip(parts, limits).allSatisfy({ part, limit in
                  !part.isEmpty && part.count <= limit && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
              }) else {
            throw Invalid()
        }
        let texts = parts.map { String(decoding: $0, as: UTF8.self) }
        guard let transaction = UInt64(texts[texts.count - 2]), let id = Int64(texts[texts.count - 1]) else { throw Invalid() }
        guard texts.count == 4 else { return ChangeCursor(transaction: transaction, id: id) }
        guard let system = UInt64(texts[0]), let timeline = UInt32(texts[1]) else { throw Invalid() }
        return ChangeCursor(transaction: transaction, id: id, history: ChangeFeedHistory(system: system, timeline: timeline))
    }
}
