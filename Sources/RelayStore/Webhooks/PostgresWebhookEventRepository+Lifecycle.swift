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
