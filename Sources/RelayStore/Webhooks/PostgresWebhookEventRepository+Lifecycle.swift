import Foundation
import PostgresNIO
import RelayDatabase
import RelayCore

/// What happens to a stored event after the receiver: the worker reads it, marks it
/// processed in the transaction that stored what it caused, or records why it is failing.
extension PostgresWebhookEventRepository {
    /// The event with the basis of its reconcile (the database's clock, and the stored state
    /// of the item it names), in one query.
    public func pending(id: Int64) async throws -> PendingWebhook? {
        let rows = try await PreparedStatementRunner.rows(PendingStatement(parameter: id), on: client, logger: logger)
        for (id, entrupyID, customerItemID, state, receivedAt, ageMilliseconds, now, result, final, flag, fetchedAt) in rows {
            var stored: StoredItemState?
            if let final, let flag, let fetchedAt {
                stored = StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt)
            }
            return PendingWebhook(id: id, entrupyID: entrupyID, customerItemID: customerItemID, state: state, receivedAt: receivedAt,
                                  age: .milliseconds(max(0, ageMilliseconds)),
                                  basis: ReconcileBasis(observedAt: now, entrupyID: entrupyID, stored: stored))
        }
        return nil
    }

    /// The text of the CTEs that mark processed the event whose fetch is being stored
    /// (`:webhook_event_id`, filling in the `:entrupy_id` a hint by customer item ID led to)
    /// and, when `:covering` is not NULL, every other queued event about the item that arrived
    /// before that fetch was requested: the fetch already saw what they hint at, so their jobs
    /// find them processed and fetch nothing (coalescing). The CTE `covered` has one row per
    /// other event marked. The names are the reconcile statement's parameters (its one
    /// prepared statement records the fetch and this together); `gate` names a CTE of that
    /// statement, and nothing is marked when it has no row (a refused write). Appended after
    /// another CTE.
    static func markReconciledText(gate: String) -> String {
        """
        ,
        marked AS (UPDATE webhook_events SET state = \(WebhookEventState.processed.sqlLiteral), processed_at = now(), last_error = NULL,
                          entrupy_id = coalesce(entrupy_id, :entrupy_id::text)
                   WHERE id = :webhook_event_id::int8 AND EXISTS (SELECT FROM \(gate)) RETURNING id),
        covered AS (UPDATE webhook_events SET state = \(WebhookEventState.processed.sqlLiteral), processed_at = now(), last_error = NULL
                    WHERE :covering::timestamptz IS NOT NULL AND entrupy_id = :entrupy_id::text
                          AND state = \(WebhookEventState.queued.sqlLiteral) AND received_at <= :covering::timestamptz
                          AND EXISTS (SELECT FROM \(gate))
                          -- Not the event marked above: one statement must not update a row twice.
                          AND id IS DISTINCT FROM :webhook_event_id::int8
                    RETURNING 1)

        """
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
