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

    /// Appends to a `WITH` statement being built the CTEs that write the item's current state
    /// (`stored`: one row when written) and append `transitions` to its timeline (`events`:
    /// their IDs, in the order of `transitions`). A `new` item is only inserted: if another
    /// worker stored it first, `stored` is empty and the caller must give up this commit.
    /// Strings are stored as `StoredText` (PostgreSQL refuses U+0000 in text and jsonb).
    static func appendStore(_ fetched: EntrupyItem, fetchedAt: Date, new: Bool, changed: Bool, transitions: [Transition],
                            source: ReconcileSource, to sql: inout PostgresQuery.StringInterpolation) {
        let item = fetched.storable
        sql.appendLiteral("""
            stored AS (
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, result_header, result_message, flag,
                                   brand, model, category, username, certificate_url, submitted_at, fetched_at, raw)
                VALUES (
            """)
        sql.appendInterpolation(item.entrupyID); sql.appendLiteral(", ")
        sql.appendInterpolation(item.customerItemID); sql.appendLiteral(", ")
        sql.appendInterpolation(item.result); sql.appendLiteral(", ")
        sql.appendInterpolation(item.resultFinal); sql.appendLiteral(", ")
        sql.appendInterpolation(item.resultHeader); sql.appendLiteral(", ")
        sql.appendInterpolation(item.resultMessage); sql.appendLiteral(", ")
        sql.appendInterpolation(item.flag); sql.appendLiteral(", ")
        sql.appendInterpolation(item.brand); sql.appendLiteral(", ")
        sql.appendInterpolation(item.model); sql.appendLiteral(", ")
        sql.appendInterpolation(item.category); sql.appendLiteral(", ")
        sql.appendInterpolation(item.username); sql.appendLiteral(", ")
        sql.appendInterpolation(item.certificateURL); sql.appendLiteral(", ")
        sql.appendInterpolation(item.submittedAt); sql.appendLiteral(", ")
        sql.appendInterpolation(fetchedAt); sql.appendLiteral(", ")
        sql.appendInterpolation(item.raw.jsonText)
        sql.appendLiteral("""
            ::jsonb)
                ON CONFLICT (entrupy_id) DO UPDATE SET
                    customer_item_id = EXCLUDED.customer_item_id, result = EXCLUDED.result,
                    result_final = EXCLUDED.result_final, result_header = EXCLUDED.result_header,
                    result_message = EXCLUDED.result_message, flag = EXCLUDED.flag, brand = EXCLUDED.brand,
                    model = EXCLUDED.model, category = EXCLUDED.category, username = EXCLUDED.username,
                    certificate_url = EXCLUDED.certificate_url, submitted_at = EXCLUDED.submitted_at,
                    fetched_at = EXCLUDED.fetched_at, raw = EXCLUDED.raw,
                    updated_at = CASE WHEN
            """)
        sql.appendLiteral(" ")
        sql.appendInterpolation(changed)
        sql.appendLiteral(" THEN now() ELSE items.updated_at END\n        WHERE NOT ")
        sql.appendInterpolation(new)
        // A data-modifying CTE always runs, so the item is written even with no transitions.
        sql.appendLiteral("""

                RETURNING entrupy_id),
            events AS (
                INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id, occurred_at, submitted_at)
                SELECT stored.entrupy_id, kind, nullif(from_value, ''), nullif(to_value, ''),
            """)
        sql.appendInterpolation(source.label); sql.appendLiteral(", ")
        sql.appendInterpolation(source.webhookEventID); sql.appendLiteral(", ")
        sql.appendInterpolation(fetchedAt); sql.appendLiteral(", CASE WHEN kind = 'result.final' THEN ")
        sql.appendInterpolation(item.submittedAt)
        sql.appendLiteral("::timestamptz END\n        FROM stored, unnest(")
        sql.appendInterpolation(transitions.map(\.kind.rawValue)); sql.appendLiteral("::text[], ")
        sql.appendInterpolation(transitions.map { StoredText.clean($0.from ?? "") }); sql.appendLiteral("::text[], ")
        sql.appendInterpolation(transitions.map { StoredText.clean($0.to ?? "") })
        sql.appendLiteral("""
            ::text[])
                     WITH ORDINALITY AS t (kind, from_value, to_value, position)
                ORDER BY position
                RETURNING id)
            """)
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
