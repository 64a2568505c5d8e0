import Foundation
import PostgresNIO
import RelayDatabase
public import RelayModel

extension PostgresWebhookEventStore {
    /// The event with the basis of its reconcile (the database's clock, and the stored state
    /// of the item it names), in one query.
    public func pending(id: Int64) async throws -> PendingWebhook? {
        let rows = try await PreparedStatementRunner.rows(PendingStatement(parameter: id), on: client, logger: logger)
        for (id, entrupyID, customerItemID, state, receivedAt, ageMilliseconds, now, result, final, flag, fetchedAt, erased) in rows {
            var stored: StoredItemState?
            if let final, let flag, let fetchedAt {
                stored = StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt, erased: erased ?? false)
            }
            return PendingWebhook(id: id, entrupyID: entrupyID, customerItemID: customerItemID, state: state, receivedAt: receivedAt,
                                  age: .milliseconds(max(0, ageMilliseconds)),
                                  basis: ReconcileBasis(observedAt: now, entrupyID: entrupyID, stored: stored))
        }
        return nil
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
}
