import Foundation
import Logging
import NIOCore
import PostgresNIO
import RelayCore
import RelayQueue

/// `WebhookEventRepository` on PostgreSQL, and the one owner of a stored event's lifecycle
/// (`WebhookEventState`). A whole batch is one statement (and so one transaction and one
/// commit): new events, their jobs (through the queue's `appendEnqueue`), and duplicate
/// counts together.
public struct PostgresWebhookEventRepository: WebhookEventRepository {

    let client: PostgresClient
    let logger: Logger
    let reconcileMaxAttempts: Int

    public init(client: PostgresClient, logger: Logger, reconcileMaxAttempts: Int = 25) {
        self.client = client
        self.logger = logger
        self.reconcileMaxAttempts = reconcileMaxAttempts
    }

    public func store(_ events: [NewWebhookEvent]) async throws -> [IngestResult] {
        guard !events.isEmpty else { return [] }
        // Collapse repeats inside the batch first: ON CONFLICT cannot touch one row twice.
        var firstIndex: [String: Int] = [:]
        var unique: [(event: NewWebhookEvent, repeats: Int)] = []
        var slot: [Int] = []
        for event in events {
            let key = StoredText.clean(event.parsed.dedupKey)
            if let index = firstIndex[key] {
                unique[index].repeats += 1
                slot.append(index)
            } else {
                firstIndex[key] = unique.count
                slot.append(unique.count)
                unique.append((event, 0))
            }
        }

        func text(_ value: String?) -> String? { StoredText.clean(value, maxCharacters: 10_000) }
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 1024, interpolationCount: unique.count * 14)
        sql.appendLiteral("""
            WITH input (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, parse_error,
                        verified_by, body, body_sha256, headers, client_address, request_id, repeats) AS (VALUES
            """)
        for (index, entry) in unique.enumerated() {
            let e = entry.event
            sql.appendLiteral(index == 0 ? "(" : ",(")
            sql.appendInterpolation(StoredText.clean(e.parsed.dedupKey)); sql.appendLiteral(",")
            sql.appendInterpolation(text(e.parsed.identifiers.eventID)); sql.appendLiteral(",")
            sql.appendInterpolation(text(e.parsed.identifiers.eventType)); sql.appendLiteral(",")
            sql.appendInterpolation(text(e.parsed.identifiers.entrupyID)); sql.appendLiteral(",")
            sql.appendInterpolation(text(e.parsed.identifiers.customerItemID)); sql.appendLiteral(",")
            sql.appendInterpolation(e.parsed.state.rawValue); sql.appendLiteral(",")
            sql.appendInterpolation(text(e.parsed.parseError)); sql.appendLiteral(",")
            sql.appendInterpolation(e.verifiedBy.rawValue); sql.appendLiteral(",")
            sql.appendInterpolation(ByteBuffer(bytes: e.body)); sql.appendLiteral(",")
            sql.appendInterpolation(e.parsed.bodySHA256); sql.appendLiteral(",")
            sql.appendInterpolation(e.headersJSON); sql.appendLiteral("::jsonb,")
            sql.appendInterpolation(e.clientAddress); sql.appendLiteral(",")
            sql.appendInterpolation(e.requestID); sql.appendLiteral(",")
            sql.appendInterpolation(entry.repeats); sql.appendLiteral(")")
        }
        // A redelivery of an event the worker gave up on queues it again; one still queued
        // gets its job back if it has none (the unique key keeps it to one).
        sql.appendLiteral("""
            ),
            upserted AS (
                INSERT INTO webhook_events AS w (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state,
                    parse_error, verified_by, body, body_sha256, headers, client_address, request_id,
                    duplicates, last_duplicate_at)
                SELECT dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, parse_error,
                    verified_by, body, body_sha256, headers, client_address, request_id,
                    repeats, CASE WHEN repeats > 0 THEN now() END
                FROM input
                ON CONFLICT (dedup_key) DO UPDATE
                    SET duplicates = w.duplicates + EXCLUDED.duplicates + 1, last_duplicate_at = now(),
                        state = CASE WHEN w.state = 'failed' THEN 'queued' ELSE w.state END
                RETURNING w.id, w.dedup_key, w.state, (w.xmax = 0) AS inserted),
            to_queue AS (
                SELECT jsonb_build_object(
            """)
        sql.appendInterpolation(ReconcileWebhookJob.argumentName)
        sql.appendLiteral(", id) AS args, ")
        sql.appendInterpolation(ReconcileWebhookJob.uniqueKeyPrefix)
        sql.appendLiteral(" || id AS unique_key FROM upserted WHERE state = 'queued')")
        PostgresJobQueue.appendEnqueue(to: &sql, name: "enqueued", kind: ReconcileWebhookJob.kind,
                                       maxAttempts: reconcileMaxAttempts, from: "to_queue", wake: .afterCommit)
        sql.appendLiteral("SELECT id, dedup_key, inserted FROM upserted")

        // One statement and one commit for the whole batch, in two round trips. The statement
        // runs in its implicit transaction, which PostgreSQL commits at Sync; but its rows (and
        // postgres-nio's end of them) arrive with CommandComplete, before that commit has
        // flushed the WAL, so answering then could acknowledge events a crash would lose.
        // The second statement wakes the workers: postgres-nio sends it only after the first
        // one's ReadyForQuery, which PostgreSQL sends once the commit is durable, and a failed
        // commit (an ErrorResponse after CommandComplete) makes postgres-nio close the
        // connection, so it throws and the requests get 503. BEGIN + statement + COMMIT would
        // cost a third round trip, and a NOTIFY inside the batch's transaction would make
        // concurrent batches commit one at a time (see `PostgresJobQueue.Wake`).
        let query = PostgresQuery(stringInterpolation: sql)
        let logger = self.logger
        let byKey = try await client.withConnection { connection -> [String: (id: Int64, inserted: Bool)] in
            let rows = try await connection.query(query, logger: logger)
            var found: [String: (id: Int64, inserted: Bool)] = [:]
            for try await (id, key, inserted) in rows.decode((Int64, String, Bool).self) {
                found[key] = (id, inserted)
            }
            try await PostgresJobQueue.wakeWorkers(on: connection, logger: logger)
            return found
        }
        var seenFirst = Set<Int>()
        return try events.enumerated().map { position, event in
            guard let stored = byKey[StoredText.clean(event.parsed.dedupKey)] else { throw StoreError.missingResult }
            let isFirst = seenFirst.insert(slot[position]).inserted
            return IngestResult(id: stored.id, duplicate: !(stored.inserted && isFirst))
        }
    }

    public func list(limit: Int) async throws -> [WebhookEventRecord] {
        try await list(EventListQuery(limit: limit))
    }

    /// Newest first (by ID, which follows reception), filtered as `GET /v1/events` asks.
    public func list(_ query: EventListQuery) async throws -> [WebhookEventRecord] {
        let rows = try await client.query(WebhookEventRecord.select("""
            WHERE (cardinality(\(query.states.map(\.rawValue))::text[]) = 0 OR state = ANY(\(query.states.map(\.rawValue))::text[]))
              AND (cardinality(\(query.eventTypes)::text[]) = 0 OR event_type = ANY(\(query.eventTypes)::text[]))
              AND (cardinality(\(query.entrupyIDs)::text[]) = 0 OR entrupy_id = ANY(\(query.entrupyIDs)::text[]))
              AND (cardinality(\(query.customerItemIDs)::text[]) = 0 OR customer_item_id = ANY(\(query.customerItemIDs)::text[]))
              AND (\(query.since)::timestamptz IS NULL OR received_at >= \(query.since))
              AND (\(query.until)::timestamptz IS NULL OR received_at < \(query.until))
              AND (\(query.before)::bigint IS NULL OR id < \(query.before))
            ORDER BY id DESC LIMIT \(query.limit)
            """), logger: logger)
        return try await WebhookEventRecord.records(from: rows)
    }
}
