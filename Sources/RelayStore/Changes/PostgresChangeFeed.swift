public import Foundation
public import Logging
public import PostgresNIO
public import RelayModel

/// The change feed's reads (migration 26 says why the order is (transaction, ID)): the
/// transitions after a cursor, in that order, of transactions older than every transaction
/// still running, so that no transition can later commit before the last one returned.
/// A transaction that stays open holds the feed back (it is not lost: it comes once it ends;
/// `feedLag()` says how long it has held it). A cursor from another history of the database
/// (`ChangeFeedHistory`) is refused (`ChangeCursor.Refused`), never followed.
public struct PostgresChangeFeed: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func changes(after cursor: ChangeCursor, limit: Int) async throws -> [ChangeEntry] {
        let history = try await check(cursor)
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
            entries.append(ChangeEntry(cursor: ChangeCursor(transaction: transaction, id: id, history: history), entrupyID: entrupyID,
                                       customerItemID: customerItemID, kind: kind, from: from, to: to, occurredAt: occurredAt, source: source))
        }
        return entries
    }

    /// This database's history, once `cursor` is known to belong to it: given out in this
    /// history (when it says), not ahead of this cluster's transactions, and pointing at a
    /// transition this database holds as written by that transaction. The start belongs to
    /// every history. The last two checks are also what an old-form cursor (no history) gets,
    /// and they catch a restore that keeps the cluster and its timeline (a file-system snapshot).
    func check(_ cursor: ChangeCursor) async throws -> ChangeFeedHistory {
        let rows = try await client.query("""
            SELECT (SELECT system_identifier FROM pg_control_system()),
                   CASE WHEN pg_is_in_recovery() THEN (SELECT timeline_id FROM pg_control_checkpoint())::bigint
                        ELSE ('x' || lpad(substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8), 16, '0'))::bit(64)::bigint END,
                   \(String(cursor.transaction))::xid8 >= pg_snapshot_xmax(pg_current_snapshot()),
                   (SELECT coalesce(xact, '0'::xid8) = \(String(cursor.transaction))::xid8 FROM item_events WHERE id = \(cursor.id))
            """, logger: logger)
        for try await (system, timeline, ahead, samePlace) in rows.decode((Int64, Int64, Bool, Bool?).self) {
            guard let timeline = UInt32(exactly: timeline) else { throw UnreadableTransaction(text: "timeline \(timeline)") }
            let history = ChangeFeedHistory(systemIdentifier: system, timeline: timeline)
            if cursor.isStart { return history }
            if let given = cursor.history, given.system != history.system { throw ChangeCursor.Refused(.otherCluster) }
            if let given = cursor.history, given.timeline != history.timeline { throw ChangeCursor.Refused(.otherTimeline) }
            if ahead { throw ChangeCursor.Refused(.ahead) }
            if samePlace != true { throw ChangeCursor.Refused(.unknownTransition) }
            return history
        }
        throw UnreadableTransaction(text: "no history")
    }

    /// After a restore from another cluster's dump (`migrate` runs it): transitions written by
    /// transactions this cluster has not reached would stay unserved until it did, so they are
    /// renumbered as transaction 0, served first, in ID order. Answers how many. (A cursor from
    /// before the restore is refused by its history whatever this does.)
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

    /// A transaction ID (or timeline) PostgreSQL wrote as something this reader cannot hold.
    public struct UnreadableTransaction: Error, CustomStringConvertible {
        public let text: String
        public var description: String { "the change feed read a transaction ID that is not a number: \(text.prefix(40))" }
    }
}
