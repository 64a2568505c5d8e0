import Foundation
import PostgresNIO
import RelayCore

/// What happens to a stored event after the receiver: the worker reads it, marks it
/// processed in the transaction that stored what it caused, or records why it is failing.
extension PostgresWebhookEventRepository {
    /// The event with the basis of its reconcile (the database's clock, and the stored state
    /// of the item it names), in one query.
    public func pending(id: Int64) async throws -> PendingWebhook? {
        let rows = try await client.query("""
            SELECT w.id, w.entrupy_id, w.customer_item_id, w.state, w.received_at,
                   (extract(epoch FROM statement_timestamp() - w.received_at) * 1000)::int8, statement_timestamp(),
                   i.result, i.result_final, i.flag, i.fetched_at
            FROM webhook_events w
                 -- Not a plain join: items has a dozen indexes, and planning the join weighed them all.
                 LEFT JOIN LATERAL (SELECT result, result_final, flag, fetched_at FROM items
                                    WHERE items.entrupy_id = w.entrupy_id LIMIT 1) i ON true
            WHERE w.id = \(id)
            """, logger: logger)
        for try await (id, entrupyID, customerItemID, state, receivedAt, ageMilliseconds, now, result, final, flag, fetchedAt)
            in rows.decode((Int64, String?, String?, WebhookEventState, Date, Int64, Date, String?, Bool?, String?, Date?).self) {
            var stored: StoredItemState?
            if let final, let flag, let fetchedAt {
                stored = StoredItemState(snapshot: ItemSnapshot(result: result, resultFinal: final, flag: flag), fetchedAt: fetchedAt)
            }
            return PendingWebhook(id: id, entrupyID: entrupyID, customerItemID: customerItemID, state: state, receivedAt: receivedAt,
                                  age: .milliseconds(max(0, ageMilliseconds)),
                                  basis: ReconcileBasis(observedAt: now, entrupyID: entrupyID, stored: stored))
        }
        return nil
    }

    /// Appends to a `WITH` statement being built (after at least one CTE) the CTEs that mark
    /// processed the event whose fetch is being stored (`eventID`, filling in the Entrupy ID
    /// a hint by customer item ID led to) and, when `covering` is given, every other queued
    /// event about the item that arrived before that fetch was requested: the fetch already
    /// saw what they hint at, so their jobs find them processed and fetch nothing
    /// (coalescing). The CTE `covered` has one row per other event marked. For the reconcile
    /// commit, whose one statement records the fetch and this together.
    static func appendMarkReconciled(to sql: inout PostgresQuery.StringInterpolation, eventID: Int64?, entrupyID: String,
                                     covering observedAt: Date?) throws {
        sql.appendLiteral(",\nmarked AS (UPDATE webhook_events SET state = ")
        try sql.appendInterpolation(WebhookEventState.processed)
        sql.appendLiteral(", processed_at = now(), last_error = NULL, entrupy_id = coalesce(entrupy_id, ")
        sql.appendInterpolation(entrupyID)
        sql.appendLiteral(") WHERE id = ")
        sql.appendInterpolation(eventID)
        sql.appendLiteral(" RETURNING id),\ncovered AS (UPDATE webhook_events SET state = ")
        try sql.appendInterpolation(WebhookEventState.processed)
        sql.appendLiteral(", processed_at = now(), last_error = NULL WHERE ")
        sql.appendInterpolation(observedAt != nil)
        sql.appendLiteral(" AND entrupy_id = ")
        sql.appendInterpolation(entrupyID)
        sql.appendLiteral(" AND state = ")
        try sql.appendInterpolation(WebhookEventState.queued)
        sql.appendLiteral(" AND received_at <= ")
        sql.appendInterpolation(observedAt)
        // Not the event marked above: one statement must not update a row twice.
        sql.appendLiteral(" AND id IS DISTINCT FROM ")
        sql.appendInterpolation(eventID)
        sql.appendLiteral(" RETURNING 1)\n")
    }

    /// Records why an event's reconcile is failing; `final` marks it `failed` (a redelivery
    /// of the same event queues it again).
    public func noteError(id: Int64, error: String, final: Bool) async throws {
        try await client.query("""
            UPDATE webhook_events SET last_error = \(StoredText.clean(error, maxCharacters: 1000)),
                   state = CASE WHEN \(final) THEN \(WebhookEventState.failed) ELSE state END
            WHERE id = \(id) AND state <> \(WebhookEventState.processed)
            """, logger: logger)
    }
}
