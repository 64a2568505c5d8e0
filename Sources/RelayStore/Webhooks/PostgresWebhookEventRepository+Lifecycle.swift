import Foundation
import PostgresNIO
import RelayCore

/// What happens to a stored event after the receiver: the worker reads it, marks it
/// processed in the transaction that stored what it caused, or records why it is failing.
extension PostgresWebhookEventRepository {
    public func pending(id: Int64) async throws -> PendingWebhook? {
        let rows = try await client.query("""
            SELECT id, entrupy_id, customer_item_id, state, received_at,
                   (extract(epoch FROM statement_timestamp() - received_at) * 1000)::int8
            FROM webhook_events WHERE id = \(id)
            """, logger: logger)
        for try await (id, entrupyID, customerItemID, state, receivedAt, ageMilliseconds)
            in rows.decode((Int64, String?, String?, WebhookEventState, Date, Int64).self) {
            return PendingWebhook(id: id, entrupyID: entrupyID, customerItemID: customerItemID, state: state, receivedAt: receivedAt,
                                  age: .milliseconds(max(0, ageMilliseconds)))
        }
        return nil
    }

    /// Marks the event processed inside the caller's transaction, filling in the Entrupy ID a
    /// hint by customer item ID led to.
    static func markProcessed(id: Int64, entrupyID: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            UPDATE webhook_events SET state = \(WebhookEventState.processed), processed_at = now(), last_error = NULL,
                   entrupy_id = coalesce(entrupy_id, \(entrupyID))
            WHERE id = \(id)
            """, logger: logger)
    }

    /// Marks processed, inside the caller's transaction, every other queued event about the
    /// item that arrived before the fetch being stored was requested: that fetch already saw
    /// what they hint at, so their jobs find them processed and fetch nothing (coalescing).
    /// Returns how many it covered.
    static func markCovered(entrupyID: String, receivedBy observedAt: Date, on connection: PostgresConnection,
                            logger: Logger) async throws -> Int {
        let rows = try await connection.query("""
            WITH covered AS (
                UPDATE webhook_events SET state = \(WebhookEventState.processed), processed_at = now(), last_error = NULL
                WHERE entrupy_id = \(entrupyID) AND state = \(WebhookEventState.queued) AND received_at <= \(observedAt)
                RETURNING 1)
            SELECT count(*)::int8 FROM covered
            """, logger: logger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
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
