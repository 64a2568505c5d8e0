import Foundation
import PostgresNIO
import RelayModel
import RelayQueue

extension ErasureRun {
    /// Removes the bodies and headers of the webhooks about what is erased, whether or not their
    /// item was ever stored (not found yet, unreadable, still queued): those of the items, those
    /// that named only one of the items' customer item IDs (before Entrupy's ID was known; not
    /// another authentication of it, a resubmission), every one of the customer item ID asked for,
    /// and those whose body holds one of `needles` (a person's usernames, user IDs and emails as
    /// JSON strings); then every other webhook of the Entrupy IDs those name. Answers how many,
    /// and the Entrupy IDs (sessions) found through the webhooks.
    func eraseWebhookBodies(itemIDs: [String], needles: [String]) async throws -> (count: Int, sessions: [String]) {
        let customerItemID: String? = if case .customerItemID(let value) = selector { value } else { nil }
        // Each way in is an arm of its own, so that each uses its index; the body scan runs only
        // when there are names to look for (otherwise its arm is constant false).
        let rows = try await tx.query("""
            WITH named AS (
                SELECT id, entrupy_id FROM webhook_events WHERE entrupy_id = ANY(\(itemIDs)::text[]) AND body IS NOT NULL
                UNION
                SELECT id, entrupy_id FROM webhook_events
                WHERE entrupy_id IS NULL AND body IS NOT NULL
                  AND customer_item_id IN (SELECT customer_item_id FROM items WHERE entrupy_id = ANY(\(itemIDs)::text[]))
                UNION
                SELECT id, entrupy_id FROM webhook_events WHERE customer_item_id = \(customerItemID)::text AND body IS NOT NULL
                UNION
                SELECT id, entrupy_id FROM webhook_events
                WHERE cardinality(\(needles)::text[]) > 0 AND body IS NOT NULL
                  AND EXISTS (SELECT FROM unnest(\(needles)::text[]) AS n (form) WHERE position(convert_to(n.form, 'UTF8') IN body) > 0)),
            sessions AS (SELECT DISTINCT entrupy_id FROM named WHERE entrupy_id IS NOT NULL),
            chosen AS (
                SELECT id FROM named
                UNION
                SELECT w.id FROM webhook_events w JOIN sessions s ON w.entrupy_id = s.entrupy_id WHERE w.body IS NOT NULL),
            written AS (
                UPDATE webhook_events w SET body = NULL, headers = '{}', body_removed = 'erased', body_removed_at = now()
                FROM chosen WHERE w.id = chosen.id RETURNING 1)
            SELECT (SELECT count(*) FROM written)::int, ARRAY(SELECT entrupy_id FROM sessions ORDER BY 1)
            """, logger: logger)
        for try await (count, sessions) in rows.decode((Int, [String]).self) { return (count, sessions) }
        throw StoreError.missingResult
    }

    /// Cancels the items' deliveries still waiting to be sent (dead, saying why): they would send
    /// the erased data again. One being sent right now (its job running, as the queue says) is
    /// left to finish, so that its record says whether the partner got it; its payload goes
    /// next, so a retry after it has nothing to send.
    func cancelDeliveries(itemIDs: [String]) async throws -> Int {
        var waiting: [Int64] = []
        for try await id in try await tx.query("""
            SELECT id FROM deliveries
            WHERE entrupy_id = ANY(\(itemIDs)::text[]) AND state IN (\(DeliveryState.pending), \(DeliveryState.failed))
            ORDER BY id FOR UPDATE
            """, logger: logger).decode(Int64.self) { waiting.append(id) }
        let sending = try await PostgresJobQueue.running(DeliverJob.self, rowIDs: waiting, on: tx, logger: logger)
        let cancelled = waiting.filter { !sending.contains($0) }
        return try await count("""
            WITH written AS (
                UPDATE deliveries SET state = \(DeliveryState.dead), last_error = 'cancelled: the data it carries was erased',
                       next_attempt_at = NULL, held_since = NULL, updated_at = now()
                WHERE id = ANY(\(cancelled)::int8[]) RETURNING 1)
            SELECT count(*)::int FROM written
            """)
    }
}
