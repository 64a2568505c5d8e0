import Foundation
import Logging
import PostgresNIO
import RelayCore

/// Items and their timelines on PostgreSQL. `apply` is the one place an item changes: under a
/// per-item advisory lock it compares the stored state with the fetched one, stores the new
/// state and appends the transitions in one transaction, so two workers racing on the same
/// item record each transition once.
public struct PostgresItemRepository: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Stores `item` as observed by a request started at `observedAt`. With `planning`, the
    /// deliveries the new transitions cause are inserted in the same transaction.
    public func apply(_ item: EntrupyItem, observedAt: Date, source: ReconcileSource,
                      planning: DeliveryPlanning? = nil) async throws -> ApplyResult {
        try await client.withTransaction(logger: logger) { tx in
            try await tx.query("SELECT pg_advisory_xact_lock(hashtextextended(\(item.entrupyID), 7361))", logger: logger)
            let rows = try await tx.query("""
                SELECT result, result_final, flag, fetched_at FROM items WHERE entrupy_id = \(item.entrupyID)
                """, logger: logger)
            var stored: (snapshot: ItemSnapshot, fetchedAt: Date)?
            for try await (result, final, flag, fetchedAt) in rows.decode((String?, Bool, String, Date).self) {
                stored = (ItemSnapshot(result: result, resultFinal: final, flag: flag), fetchedAt)
            }
            if let stored, stored.fetchedAt > observedAt {
                try await recordReconciliation(of: item.entrupyID, source: source, outcome: "stale", transitions: 0, on: tx)
                try await markProcessed(source, entrupyID: item.entrupyID, on: tx)
                return ApplyResult(transitions: [], stale: true, deliveries: 0)
            }
            let transitions = TransitionDiffer.diff(from: stored?.snapshot, to: item.snapshot)
            // Any transition implies a different snapshot, so this alone says whether the state changed.
            let changed = stored?.snapshot != item.snapshot
            try await tx.query("""
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, result_header, result_message, flag,
                                   brand, model, category, username, certificate_url, submitted_at, fetched_at, raw)
                VALUES (\(item.entrupyID), \(item.customerItemID), \(item.result), \(item.resultFinal), \(item.resultHeader),
                        \(item.resultMessage), \(item.flag), \(item.brand), \(item.model), \(item.category), \(item.username),
                        \(item.certificateURL), \(item.submittedAt), \(observedAt), \(item.raw.jsonText)::jsonb)
                ON CONFLICT (entrupy_id) DO UPDATE SET
                    customer_item_id = EXCLUDED.customer_item_id, result = EXCLUDED.result,
                    result_final = EXCLUDED.result_final, result_header = EXCLUDED.result_header,
                    result_message = EXCLUDED.result_message, flag = EXCLUDED.flag, brand = EXCLUDED.brand,
                    model = EXCLUDED.model, category = EXCLUDED.category, username = EXCLUDED.username,
                    certificate_url = EXCLUDED.certificate_url, submitted_at = EXCLUDED.submitted_at,
                    fetched_at = EXCLUDED.fetched_at, raw = EXCLUDED.raw,
                    updated_at = CASE WHEN \(changed) THEN now() ELSE items.updated_at END
                """, logger: logger)
            var recorded: [RecordedTransition] = []
            for transition in transitions {
                let rows = try await tx.query("""
                    INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id)
                    VALUES (\(item.entrupyID), \(transition.kind.rawValue), \(transition.from), \(transition.to),
                            \(source.label), \(source.webhookEventID))
                    RETURNING id, occurred_at
                    """, logger: logger)
                for try await (id, occurredAt) in rows.decode((Int64, Date).self) {
                    recorded.append(RecordedTransition(itemEventID: id, transition: transition, occurredAt: occurredAt))
                }
            }
            var deliveries = 0
            if let planning, !recorded.isEmpty {
                let planned = planning.plan(item, recorded)
                deliveries = try await PostgresDeliveryRepository.insert(planned, maxAttempts: planning.maxAttempts, on: tx, logger: logger)
            }
            let outcome = stored == nil ? "created" : (changed ? "changed" : "unchanged")
            try await recordReconciliation(of: item.entrupyID, source: source, outcome: outcome, transitions: transitions.count, on: tx)
            try await markProcessed(source, entrupyID: item.entrupyID, on: tx)
            return ApplyResult(transitions: transitions, stale: false, deliveries: deliveries)
        }
    }

    /// One row per fetch that reached the store, for the item's timeline.
    private func recordReconciliation(of entrupyID: String, source: ReconcileSource, outcome: String, transitions: Int,
                                      on tx: PostgresConnection) async throws {
        try await tx.query("""
            INSERT INTO reconciliations (entrupy_id, source, webhook_event_id, outcome, transitions)
            VALUES (\(entrupyID), \(source.label), \(source.webhookEventID), \(outcome), \(transitions))
            """, logger: logger)
    }

    private func markProcessed(_ source: ReconcileSource, entrupyID: String, on tx: PostgresConnection) async throws {
        guard let eventID = source.webhookEventID else { return }
        try await tx.query("""
            UPDATE webhook_events SET state = 'processed', processed_at = now(), last_error = NULL,
                   entrupy_id = coalesce(entrupy_id, \(entrupyID))
            WHERE id = \(eventID)
            """, logger: logger)
    }

    public func webhook(id: Int64) async throws -> PendingWebhook? {
        let rows = try await client.query("""
            SELECT id, entrupy_id, customer_item_id, state, received_at FROM webhook_events WHERE id = \(id)
            """, logger: logger)
        for try await (id, entrupyID, customerItemID, state, receivedAt) in rows.decode((Int64, String?, String?, String, Date).self) {
            return PendingWebhook(id: id, entrupyID: entrupyID, customerItemID: customerItemID, state: state, receivedAt: receivedAt)
        }
        return nil
    }

    /// Records why a webhook's reconcile is failing; `final` marks it `failed`.
    public func noteWebhookError(id: Int64, error: String, final: Bool) async throws {
        try await client.query("""
            UPDATE webhook_events SET last_error = \(String(error.prefix(1000))),
                   state = CASE WHEN \(final) THEN 'failed' ELSE state END
            WHERE id = \(id)
            """, logger: logger)
    }

    /// Items not settled (result not final, or flagged) whose last fetch is older than `age`.
    public func unsettled(olderThan age: Duration, limit: Int) async throws -> [String] {
        let rows = try await client.query("""
            SELECT entrupy_id FROM items
            WHERE (NOT result_final OR flag = 'flagged')
              AND fetched_at < now() - \(age.milliseconds) * interval '1 millisecond'
            ORDER BY fetched_at LIMIT \(limit)
            """, logger: logger)
        var ids: [String] = []
        for try await id in rows.decode(String.self) { ids.append(id) }
        return ids
    }
}
