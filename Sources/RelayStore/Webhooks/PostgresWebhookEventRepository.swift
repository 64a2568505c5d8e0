import Foundation
import Logging
import PostgresNIO
import RelayDatabase
import RelayCore
import RelayQueue

/// `WebhookEventRepository` on PostgreSQL, and the one owner of a stored event's lifecycle
/// (`WebhookEventState`). A whole batch is one statement (and so one transaction and one
/// commit): new events, their jobs (through the queue's `JobInsert`), and duplicate
/// counts together.
public struct PostgresWebhookEventRepository: Sendable {

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

        // One statement and one commit for the whole batch, in two round trips. The statement
        // runs in its implicit transaction, which PostgreSQL commits at Sync; but its rows (and
        // postgres-nio's end of them) arrive with CommandComplete, before that commit has
        // flushed the WAL, so answering then could acknowledge events a crash would lose.
        // The second statement wakes the workers: postgres-nio sends it only after the first
        // one's ReadyForQuery, which PostgreSQL sends once the commit is durable, and a failed
        // commit (an ErrorResponse after CommandComplete) makes postgres-nio close the
        // connection, so it throws and the requests get 503. BEGIN + statement + COMMIT would
        // cost a third round trip, and a NOTIFY inside the batch's transaction would make
        // concurrent batches commit one at a time (see `JobInsert`).
        let statement = StoreStatement(events: unique, reconcileMaxAttempts: reconcileMaxAttempts)
        let logger = self.logger
        let byKey = try await client.withConnection { connection -> [String: (id: Int64, inserted: Bool)] in
            let rows = try await PreparedStatementRunner.rows(statement, on: connection, logger: logger)
            var found: [String: (id: Int64, inserted: Bool)] = [:]
            for (id, key, inserted) in rows {
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
