public import Foundation
import PostgresNIO
import RelayDatabase
public import RelayModel

extension PostgresWebhookEventStore {
    /// The event with the basis of its reconcile (the database's clock, and the stored state
    /// of the item it names), in one query.
    public func pending(id: Int64) async throws -> PendingWebhook? {
        try await PreparedStatementRunner.rows(PendingStatement(parameter: id), on: client, logger: logger).first.map(Self.pendingWebhook)
    }

    /// `pending(id:)` taking the fetch lease of the item the event names in the same round trip
    /// (`PendingLeasingStatement`); `leasedKey` is the lease's key when it was taken.
    public func pending(id: Int64, leasingFor holder: UUID, duration: Duration) async throws -> (event: PendingWebhook, leasedKey: String?)? {
        let statement = PendingLeasingStatement(id: id, holder: holder, milliseconds: duration.milliseconds)
        return try await PreparedStatementRunner.rows(statement, on: client, logger: logger).first.map { row in
            (Self.pendingWebhook(row.pending), row.leasedKey)
        }
    }

    static func pendingWebhook(_ row: PendingStatement.Row) -> PendingWebhook {
        let (id, entrupyID, customerItemID, state, receivedAt, ageMilliseconds, now, result, final, flag, fetchedAt, erased) = row
        var stored: StoredItemState?
        if let final, let flag, let fetchedAt {
            stored = StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt, erased: erased ?? false)
        }
        return PendingWebhook(id: id, entrupyID: entrupyID, customerItemID: customerItemID, state: state, receivedAt: receivedAt,
                              age: .milliseconds(max(0, ageMilliseconds)),
                              basis: ReconcileBasis(observedAt: now, entrupyID: entrupyID, stored: stored))
    }

    /// Reads a stored event with the basis of its reconcile: the database's clock and the
    /// stored state of the item it names. Every reconcile starts with it, so it is prepared
    /// once per connection (parsed once, and soon planned once).
    struct PendingStatement: OneParameterStatement {
        typealias Row = (Int64, String?, String?, WebhookEventState, Date, Int64, Date, String?, Bool?, String?, Date?, Bool?)
        static let name = "webhook_pending"
        static let sql = """
            SELECT w.id, w.entrupy_id, w.customer_item_id, w.state, w.received_at,
                   (extract(epoch FROM statement_timestamp() - w.received_at) * 1000)::int8, statement_timestamp(),
                   i.result, i.result_final, i.flag, i.fetched_at, i.erased
            FROM webhook_events w
                 -- Not a plain join: items has a dozen indexes, and planning the join weighed them all.
                 LEFT JOIN LATERAL (SELECT result, result_final, flag, fetched_at, erased_at IS NOT NULL AS erased FROM items
                                    WHERE items.entrupy_id = w.entrupy_id LIMIT 1) i ON true
            WHERE w.id = $1
            """

        /// The event's ID.
        let parameter: Int64

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    /// `PendingStatement` that also takes the fetch lease of the item the event names (its key
    /// as `FetchLease`'s prefixes make it: by Entrupy ID when the event has one), when the event
    /// is still to reconcile and the lease is free or expired: one round trip where the
    /// reconcile spent two. The lease's table is unlogged, so the statement's commit waits for no
    /// WAL flush. Answers the lease's key when it was taken.
    struct PendingLeasingStatement: PostgresPreparedStatement {
        typealias Row = (pending: PendingStatement.Row, leasedKey: String?)
        static let name = "webhook_pending_leasing"
        static let sql = """
            WITH w AS (\(PendingStatement.sql)),
            leased AS (
                INSERT INTO item_fetch_leases (item_key, holder, expires_at)
                SELECT CASE WHEN w.entrupy_id IS NOT NULL THEN $4::text || w.entrupy_id ELSE $5::text || w.customer_item_id END,
                       $2, now() + $3::bigint * interval '1 millisecond'
                FROM w
                WHERE w.state <> \(WebhookEventState.processed.sqlLiteral) AND coalesce(w.entrupy_id, w.customer_item_id) IS NOT NULL
                ON CONFLICT (item_key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                    WHERE item_fetch_leases.expires_at < now()
                RETURNING item_key)
            SELECT w.*, (SELECT item_key FROM leased) FROM w
            """

        let id: Int64
        let holder: UUID
        let milliseconds: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(id)
            bindings.append(holder)
            bindings.append(milliseconds)
            bindings.append(FetchLease.entrupyIDPrefix)
            bindings.append(FetchLease.customerItemIDPrefix)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let (id, entrupyID, customerItemID, state, receivedAt, age, now, result, final, flag, fetchedAt, erased, leasedKey) = try row.decode(
                (Int64, String?, String?, WebhookEventState, Date, Int64, Date, String?, Bool?, String?, Date?, Bool?, String?).self)
            return ((id, entrupyID, customerItemID, state, receivedAt, age, now, result, final, flag, fetchedAt, erased), leasedKey)
        }
    }
}
