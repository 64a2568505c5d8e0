public import Foundation
public import Logging
public import PostgresNIO
public import RelayCore

/// The change feed's reads (migration 26 says why the order is (transaction, ID)): the
/// transitions after a cursor, in that order, of transactions older than every transaction
/// still running, so that no transition can later commit before the last one returned.
/// A transaction that stays open holds the feed back (it is not lost: it comes once it ends).
public struct PostgresChangeFeed: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func changes(after cursor: ChangeCursor, limit: Int) async throws -> [ChangeEntry] {
        let transaction = String(cursor.transaction)
        let rows = try await client.query("""
            SELECT coalesce(e.xact, '0'::xid8)::text, e.id, e.entrupy_id, i.customer_item_id, e.kind, e.from_value, e.to_value,
                   e.occurred_at, e.source
            FROM item_events e JOIN items i ON i.entrupy_id = e.entrupy_id
            WHERE (coalesce(e.xact, '0'::xid8), e.id) > (\(transaction)::xid8, \(cursor.id))
              AND coalesce(e.xact, '0'::xid8) < pg_snapshot_xmin(pg_current_snapshot())
            ORDER BY coalesce(e.xact, '0'::xid8), e.id
            LIMIT \(limit)
            """, logger: logger)
        var entries: [ChangeEntry] = []
        for try await (xact, id, entrupyID, customerItemID, kind, from, to, occurredAt, source)
            in rows.decode((String, Int64, String, String?, String, String?, String?, Date, String).self) {
            guard let transaction = UInt64(xact) else { throw UnreadableTransaction(text: xact) }
            entries.append(ChangeEntry(cursor: ChangeCursor(transaction: transaction, id: id), entrupyID: entrupyID,
                                       customerItemID: customerItemID, kind: kind, from: from, to: to, occurredAt: occurredAt, source: source))
        }
        // Nothing after it: a cursor whose transaction this database has not reached yet
        // (given out before a restore) would wait past every transition written since.
        if entries.isEmpty, cursor.transaction > 0 {
            for try await ahead in try await client.query("""
                SELECT \(transaction)::xid8 >= pg_snapshot_xmax(pg_current_snapshot())
                """, logger: logger).decode(Bool.self) where ahead {
                throw ChangeCursor.Ahead()
            }
        }
        return entries
    }

    /// After a restore from another cluster's dump (`migrate` runs it): transitions written by
    /// transactions this cluster has not reached would stay unserved until it did, so they are
    /// renumbered as transaction 0, served first, in ID order. Answers how many.
    public func renumberRestored() async throws -> Int {
        let rows = try await client.query("""
            WITH renumbered AS (
                UPDATE item_events SET xact = NULL
                WHERE coalesce(xact, '0'::xid8) >= pg_snapshot_xmax(pg_current_snapshot())
                RETURNING 1)
            SELECT count(*)::int FROM renumbered
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// A transaction ID PostgreSQL wrote as something other than digits.
    public struct UnreadableTransaction: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "the change feed read a transaction ID that is not a number: \(text.prefix(40))" }
    }
}
