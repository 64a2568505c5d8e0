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

    /// Writes the item's current state inside the caller's transaction. Strings are stored
    /// as `StoredText` (PostgreSQL refuses U+0000 in text and jsonb).
    static func upsert(_ fetched: EntrupyItem, fetchedAt: Date, changed: Bool, on tx: PostgresConnection, logger: Logger) async throws {
        let item = fetched.storable
        try await tx.query("""
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
            """, logger: logger)
    }

    /// Appends transitions to the item's timeline inside the caller's transaction; returns
    /// the new rows' IDs in the order of `transitions`.
    static func appendTimeline(_ transitions: [Transition], of entrupyID: String, at occurredAt: Date, source: ReconcileSource,
                               on tx: PostgresConnection, logger: Logger) async throws -> [Int64] {
        guard !transitions.isEmpty else { return [] }
        let rows = try await tx.query("""
            INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id, occurred_at)
            SELECT \(entrupyID), kind, nullif(from_value, ''), nullif(to_value, ''), \(source.label), \(source.webhookEventID),
                   \(occurredAt)
            FROM unnest(\(transitions.map(\.kind.rawValue))::text[], \(transitions.map { StoredText.clean($0.from ?? "") })::text[],
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
