import Foundation
import PostgresNIO
import RelayModel
import RelayDatabase

/// Each retention kind's three statements, whole: prune a batch, estimate, find the oldest.
/// Finished means a webhook no longer `queued` and a delivery `delivered`, `dead` or `silenced` (the typed
/// states, bound as parameters: each statement is planned with their values, so the partial
/// indexes on those states still serve it); a delivery's age is counted from then
/// (`updated_at`, which nothing changes after).
extension PostgresRetentionStore {

    /// A batch of at most `limit` of the kind's rows older than `cutoff`, removed; answers how many.
    static func pruneQuery(_ kind: RetentionKind, before cutoff: Date, limit: Int) -> PostgresQuery {
        let statement = pruneStatement(kind)
        var values = NamedBindings()
        values.set("cutoff", cutoff)
        values.set("limit", limit)
        values.set("queued", WebhookEventState.queued.rawValue)
        values.set("delivered", DeliveryState.delivered.rawValue)
        values.set("dead", DeliveryState.dead.rawValue)
        values.set("silenced", DeliveryState.silenced.rawValue)
        return PostgresQuery(unsafeSQL: statement.text, binds: values.bindings(for: statement))
    }

    static func pruneStatement(_ kind: RetentionKind) -> NamedSQL {
        switch kind {
        case .webhookBodies: pruneWebhookBodies
        case .webhookEvents: pruneWebhookEvents
        case .reconciliations: pruneReconciliations
        case .deliveryPayloads: pruneDeliveryPayloads
        case .deliveryAttempts: pruneDeliveryAttempts
        case .sdkUsers: pruneSDKUsers
        }
    }

    static let pruneWebhookBodies = NamedSQL("""
        WITH chosen AS (
            SELECT id FROM webhook_events
            WHERE body IS NOT NULL AND received_at < :cutoff AND state <> :queued
            ORDER BY received_at LIMIT :limit FOR UPDATE SKIP LOCKED),
        gone AS (
            UPDATE webhook_events w SET body = NULL, headers = '{}', body_removed = 'expired', body_removed_at = now()
            FROM chosen WHERE w.id = chosen.id RETURNING 1)
        SELECT count(*)::int FROM gone
        """)

    static let pruneWebhookEvents = NamedSQL("""
        WITH chosen AS (
            SELECT id FROM webhook_events
            WHERE received_at < :cutoff AND state <> :queued
            ORDER BY received_at LIMIT :limit FOR UPDATE SKIP LOCKED),
        gone AS (DELETE FROM webhook_events w USING chosen WHERE w.id = chosen.id RETURNING 1)
        SELECT count(*)::int FROM gone
        """)

    /// The table's oldest rows by ID (IDs follow time within a transaction's length), through
    /// the primary key; a batch that meets a newer row stops the kind's pass.
    static let pruneReconciliations = NamedSQL("""
        WITH head AS (SELECT id, at FROM reconciliations ORDER BY id LIMIT :limit),
        gone AS (DELETE FROM reconciliations r USING head WHERE r.id = head.id AND head.at < :cutoff RETURNING 1)
        SELECT count(*)::int FROM gone
        """)

    static let pruneDeliveryPayloads = NamedSQL("""
        WITH chosen AS (
            SELECT id FROM deliveries
            WHERE payload IS NOT NULL AND state IN (:delivered, :dead, :silenced) AND updated_at < :cutoff
            ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED),
        gone AS (
            UPDATE deliveries d SET payload = NULL, payload_removed = 'expired'
            FROM chosen WHERE d.id = chosen.id RETURNING d.id),
        replies AS (
            UPDATE delivery_attempts a SET response_excerpt = NULL, smtp_reply = NULL
            FROM gone WHERE a.delivery_id = gone.id AND (a.response_excerpt IS NOT NULL OR a.smtp_reply IS NOT NULL)
            RETURNING 1)
        SELECT count(*)::int FROM gone
        """)

    static let pruneDeliveryAttempts = NamedSQL("""
        WITH chosen AS (
            SELECT id FROM deliveries
            WHERE attempts_removed_at IS NULL AND state IN (:delivered, :dead, :silenced) AND updated_at < :cutoff
            ORDER BY updated_at LIMIT :limit FOR UPDATE SKIP LOCKED),
        marked AS (
            UPDATE deliveries d SET attempts_removed_at = now() FROM chosen WHERE d.id = chosen.id RETURNING d.id),
        gone AS (DELETE FROM delivery_attempts a USING marked WHERE a.delivery_id = marked.id RETURNING 1)
        SELECT count(*)::int FROM marked
        """)

    static let pruneSDKUsers = NamedSQL("""
        WITH chosen AS (
            SELECT unique_user_id FROM sdk_users WHERE last_authorized_at < :cutoff
            LIMIT :limit FOR UPDATE SKIP LOCKED),
        gone AS (DELETE FROM sdk_users s USING chosen WHERE s.unique_user_id = chosen.unique_user_id RETURNING 1)
        SELECT count(*)::int FROM gone
        """)

    /// Rows that pruning at `cutoff` would remove now, and their bytes (a payload's stored
    /// size, or rows times the table's average row with its indexes).
    static func estimateQuery(_ kind: RetentionKind, before cutoff: Date, notBefore: Date?) -> PostgresQuery {
        switch kind {
        case .webhookBodies:
            return """
                SELECT count(*)::int, coalesce(sum(pg_column_size(body) + pg_column_size(headers)), 0)::int8 FROM webhook_events
                WHERE body IS NOT NULL AND received_at < \(cutoff) AND state <> \(WebhookEventState.queued.rawValue)
                  AND (\(notBefore)::timestamptz IS NULL OR received_at >= \(notBefore)::timestamptz)
                """
        case .webhookEvents:
            return averaged("webhook_events", count: "SELECT count(*) FROM webhook_events WHERE received_at < \(cutoff) AND state <> \(WebhookEventState.queued.rawValue)")
        case .reconciliations:
            return averaged("reconciliations", count: "SELECT count(*) FROM reconciliations WHERE at < \(cutoff)")
        case .deliveryPayloads:
            return """
                SELECT count(*)::int, coalesce(sum(pg_column_size(payload)), 0)::int8 FROM deliveries
                WHERE payload IS NOT NULL AND state IN (\(DeliveryState.delivered.rawValue), \(DeliveryState.dead.rawValue), \(DeliveryState.silenced.rawValue)) AND updated_at < \(cutoff)
                """
        case .deliveryAttempts:
            return """
                WITH due AS (
                    SELECT id FROM deliveries
                    WHERE attempts_removed_at IS NULL AND state IN (\(DeliveryState.delivered.rawValue), \(DeliveryState.dead.rawValue), \(DeliveryState.silenced.rawValue)) AND updated_at < \(cutoff)),
                rows AS (SELECT count(*) AS n FROM delivery_attempts a JOIN due ON a.delivery_id = due.id),
                size AS (SELECT CASE WHEN c.reltuples > 0 THEN pg_total_relation_size(c.oid)::float8 / c.reltuples ELSE 0 END AS each
                         FROM pg_class c WHERE c.oid = 'delivery_attempts'::regclass)
                SELECT (SELECT count(*) FROM due)::int, (rows.n * size.each)::int8 FROM rows, size
                """
        case .sdkUsers:
            return averaged("sdk_users", count: "SELECT count(*) FROM sdk_users WHERE last_authorized_at < \(cutoff)")
        }
    }

    /// `SELECT rows, rows × average row` for a kind whose rows are deleted whole (0 bytes for a
    /// table never analysed, whose row count PostgreSQL does not know). `count` is a
    /// query whose values are already bound; `table` is one of this file's constants.
    private static func averaged(_ table: StaticString, count: PostgresQuery) -> PostgresQuery {
        PostgresQuery(unsafeSQL: """
            WITH due AS (\(count.sql)),
            size AS (SELECT CASE WHEN c.reltuples > 0 THEN pg_total_relation_size(c.oid)::float8 / c.reltuples ELSE 0 END AS each
                     FROM pg_class c WHERE c.oid = '\(table)'::regclass)
            SELECT due.count::int, (due.count * size.each)::int8 FROM due, size
            """, binds: count.binds)
    }

    /// When the oldest row still holding what the kind removes was made.
    static func oldestQuery(_ kind: RetentionKind) -> PostgresQuery {
        switch kind {
        case .webhookBodies:
            "SELECT min(received_at) FROM webhook_events WHERE body IS NOT NULL"
        case .webhookEvents:
            "SELECT min(received_at) FROM webhook_events"
        case .reconciliations:
            "SELECT (SELECT at FROM reconciliations ORDER BY id LIMIT 1)"
        case .deliveryPayloads:
            "SELECT min(updated_at) FROM deliveries WHERE payload IS NOT NULL AND state IN (\(DeliveryState.delivered.rawValue), \(DeliveryState.dead.rawValue), \(DeliveryState.silenced.rawValue))"
        case .deliveryAttempts:
            "SELECT min(updated_at) FROM deliveries WHERE attempts_removed_at IS NULL AND state IN (\(DeliveryState.delivered.rawValue), \(DeliveryState.dead.rawValue), \(DeliveryState.silenced.rawValue))"
        case .sdkUsers:
            "SELECT min(last_authorized_at) FROM sdk_users"
        }
    }
}
