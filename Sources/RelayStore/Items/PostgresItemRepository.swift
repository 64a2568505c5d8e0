import Foundation
import Logging
import PostgresNIO
import RelayCore
import RelayQueue

/// Items and their timelines on PostgreSQL. Items change only through
/// `PostgresReconcileStore.commit`, which calls the writers here inside its transaction.
public struct PostgresItemRepository: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Writes the item's current state and appends `transitions` to its timeline inside the
    /// caller's transaction, in one statement; returns the new timeline rows' IDs in the order
    /// of `transitions`. Strings are stored as `StoredText` (PostgreSQL refuses U+0000 in text
    /// and jsonb).
    static func store(_ fetched: EntrupyItem, fetchedAt: Date, changed: Bool, transitions: [Transition], source: ReconcileSource,
                      on tx: PostgresConnection, logger: Logger) async throws -> [Int64] {
        let item = fetched.storable
        // A data-modifying CTE always runs, so the item is written even with no transitions.
        let rows = try await tx.query("""
            WITH stored AS (
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, result_header, result_message, flag,
                                   brand, model, category, username, certificate_url, submitted_at, fetched_at, raw)
                VALUES (\(item.entrupyID), \(item.customerItemID), \(item.result), \(item.resultFinal), \(item.resultHeader),
                        \(item.resultMessage), \(item.flag), \(item.brand), \(item.model), \(item.category), \(item.username),
                        \(item.certificateURL), \(item.submittedAt), \(fetchedAt), \(item.raw.jsonText)::jsonb)
                ON CONFLICT (entrupy_id) DO UPDATE SET
                    customer_item_id = EXCLUDED.customer_item_id, result = EXCLUDED.result,
                    result_final = EXCLUDED.result_final, result_header = EXCLUDED.result_header,
                    result_message = EXCLUDED.result_message, flag = EXCLUDED.flag, brand = EXCLUDED.brand,
                    model = EXCLUDED.model, category = EXCLUDED.category, username = EXCLUDED.username,
                    certificate_url = EXCLUDED.certificate_url, submitted_at = EXCLUDED.submitted_at,
                    fetched_at = EXCLUDED.fetched_at, raw = EXCLUDED.raw,
                    updated_at = CASE WHEN \(changed) THEN now() ELSE items.updated_at END
                RETURNING entrupy_id)
            INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id, occurred_at, submitted_at)
            SELECT stored.entrupy_id, kind, nullif(from_value, ''), nullif(to_value, ''), \(source.label), \(source.webhookEventID),
                   \(fetchedAt), CASE WHEN kind = 'result.final' THEN \(item.submittedAt)::timestamptz END
            FROM stored, unnest(\(transitions.map(\.kind.rawValue))::text[], \(transitions.map { StoredText.clean($0.from ?? "") })::text[],
                                \(transitions.map { StoredText.clean($0.to ?? "") })::text[])
                 WITH ORDINALITY AS t (kind, from_value, to_value, position)
            ORDER BY position
            RETURNING id
            """, logger: logger)
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        return ids.sorted()
    }

    /// Queues a re-fetch of the item (support's "fetch again"); nil when one is already queued.
    public func queueRefetch(entrupyID: String, source: ReconcileSource) async throws -> Int64? {
        try await PostgresJobQueue(client: client, logger: logger).enqueue([try ReconcileItemJob(entrupyID: entrupyID, source: source).job()]).first
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
