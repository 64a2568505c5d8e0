import Foundation
import PostgresNIO
import RelayDatabase
import RelayModel

/// What happens to a stored event after the receiver: the worker reads it, marks it
/// processed in the transaction that stored what it caused, or records why it is failing.
extension PostgresWebhookEventStore {
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
