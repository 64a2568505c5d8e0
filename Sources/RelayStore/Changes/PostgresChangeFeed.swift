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
            entries.append(ChangeEntry(cursor: ChangeCursor(transaction: UInt64(xact) ?? 0, id: id), entrupyID: entrupyID,
                                       customerItemID: customerItemID, kind: kind, from: from, to: to, occurredAt: occurredAt, source: source))
        }
        return entries
    }
}
