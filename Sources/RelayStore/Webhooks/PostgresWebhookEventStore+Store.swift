import NIOCore
import PostgresNIO
public import RelayModel
import RelayDatabase
import RelayQueue
import Foundation
import Logging

extension PostgresWebhookEventStore {
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
        // With the worker in this process (`handoff`), the jobs go in claimed by it, up to its
        // free slots, and are handed to it once durable: no NOTIFY, no claim. The second round
        // trip is then a bare one, unless some jobs went in available for any worker.
        let statement = StoreStatement(events: unique, reconcileMaxAttempts: reconcileMaxAttempts, handoff: handoff)
        let logger = self.logger
        let (byKey, leased) = try await client.withConnection { connection in
            let rows = try await PreparedStatementRunner.rows(statement, on: connection, logger: logger)
            var found: [String: (id: Int64, inserted: Bool, reused: Bool)] = [:]
            var enqueued: Int32 = 0, leased: (ids: [Int64], args: [String]) = ([], [])
            for (id, key, inserted, reused, jobs, leasedIDs, leasedArgs) in rows {
                found[key] = (id, inserted, reused)
                (enqueued, leased) = (jobs, (leasedIDs, leasedArgs))
            }
            if Int(enqueued) > leased.ids.count {
                try await PostgresJobQueue.wakeWorkers(on: connection, logger: logger)
            } else {
                _ = try await PreparedStatementRunner.rows(PostgresReconcileStore.CommittedStatement(), on: connection, logger: logger)
            }
            return (found, leased)
        }
        StoreStatement.enqueue(maxAttempts: reconcileMaxAttempts).adopt(ids: leased.ids, args: leased.args, into: handoff)
        var seenFirst = Set<Int>()
        return try events.enumerated().map { position, event in
            guard let stored = byKey[StoredText.clean(event.parsed.dedupKey)] else { throw StoreError.missingResult }
            let isFirst = seenFirst.insert(slot[position]).inserted
            let new = stored.inserted && isFirst
            return IngestResult(id: stored.id, duplicate: !new, reusedEventID: new && stored.reused)
        }
    }

    /// Stores a batch of events (one array per column, repeats inside the batch already
    /// collapsed) and queues a reconcile job for each one queued; answers (id, dedup key,
    /// inserted, whether its body id was an earlier event's) per event. The receiver runs it
    /// for every batch, so its text never changes and each connection prepares it once: PostgreSQL parses it once and soon plans it once,
    /// where a statement with a row of values per event was parsed and planned every time.
    /// Arrays cannot hold NULL here (postgres-nio encodes no optional elements), so each
    /// nullable column travels as text with a bit in `:nulls` saying which values are NULL.
    struct StoreStatement: PostgresPreparedStatement {
        typealias Row = (Int64, String, Bool, Bool, Int32, [Int64], [String])
        static let name = "webhook_store"

        /// Bits of the `nulls` mask, one per nullable column.
        enum Nullable: Int, CaseIterable {
            case eventID = 1, eventType = 2, entrupyID = 4, customerItemID = 8, parseError = 16, clientAddress = 32, requestID = 64
            case traceParent = 128
        }

        static let named = NamedSQL("""
            -- The arrays reach unnest through a materialized CTE, so the planner cannot see how
            -- many events a batch holds: every batch gets the same estimate (10 rows) and the
            -- same plan, and PostgreSQL soon keeps one generic plan. With the arrays as
            -- unnest's own arguments, each batch was planned again for its size (901 plans in
            -- 995 executions, 0.45 ms of PostgreSQL each), its custom plan always cheaper than
            -- the generic one estimated for 10 rows.
            WITH arrays AS MATERIALIZED (
                SELECT :dedup_keys::text[] AS dedup_keys, :event_ids::text[] AS event_ids, :event_types::text[] AS event_types,
                       :entrupy_ids::text[] AS entrupy_ids, :customer_item_ids::text[] AS customer_item_ids, :states::text[] AS states,
                       :parse_errors::text[] AS parse_errors, :nulls::int[] AS null_masks, :verified_by::text[] AS verifiers,
                       :bodies::bytea[] AS bodies, :body_sha256s::text[] AS body_sha256s, :headers::text[] AS header_texts,
                       :client_addresses::text[] AS client_addresses, :request_ids::text[] AS request_ids,
                       :trace_parents::text[] AS trace_parents, :repeats::int[] AS repeat_counts),
            input AS (
                SELECT dedup_key,
                       CASE WHEN nulls & 1 = 0 THEN event_id END AS event_id,
                       CASE WHEN nulls & 2 = 0 THEN event_type END AS event_type,
                       CASE WHEN nulls & 4 = 0 THEN entrupy_id END AS entrupy_id,
                       CASE WHEN nulls & 8 = 0 THEN customer_item_id END AS customer_item_id,
                       state,
                       CASE WHEN nulls & 16 = 0 THEN parse_error END AS parse_error,
                       verified_by, body, body_sha256, headers::jsonb AS headers,
                       CASE WHEN nulls & 32 = 0 THEN client_address END AS client_address,
                       CASE WHEN nulls & 64 = 0 THEN request_id END AS request_id,
                       CASE WHEN nulls & 128 = 0 THEN trace_parent END AS trace_parent,
                       repeats, position
                FROM arrays a, unnest(a.dedup_keys, a.event_ids, a.event_types, a.entrupy_ids, a.customer_item_ids, a.states,
                                      a.parse_errors, a.null_masks, a.verifiers, a.bodies, a.body_sha256s, a.header_texts,
                                      a.client_addresses, a.request_ids, a.trace_parents, a.repeat_counts)
                     WITH ORDINALITY AS i (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, parse_error, nulls,
                           verified_by, body, body_sha256, headers, client_address, request_id, trace_parent, repeats, position)),
            upserted AS (
                INSERT INTO webhook_events AS w (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state,
                    parse_error, verified_by, body, body_sha256, headers, client_address, request_id,
                    duplicates, last_duplicate_at)
                SELECT dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, parse_error,
                    verified_by, body, body_sha256, headers, client_address, request_id,
                    repeats, CASE WHEN repeats > 0 THEN now() END
                FROM input
                ORDER BY position -- IDs follow the batch's order of reception
                ON CONFLICT (dedup_key) DO UPDATE
                    SET duplicates = w.duplicates + EXCLUDED.duplicates + 1, last_duplicate_at = now(),
                        state = CASE WHEN w.state = \(WebhookEventState.failed.sqlLiteral) THEN \(WebhookEventState.queued.sqlLiteral) ELSE w.state END
                RETURNING w.id, w.dedup_key, w.state, (w.xmax = 0) AS inserted, w.event_id, w.entrupy_id, w.body_sha256),
            -- A redelivery of an event the worker gave up on queues it again; one still queued
            -- gets its job back if it has none (the unique key keeps it to one).
            -- Each job carries its webhook's trace context (the receipt's).
            to_queue AS (SELECT u.id, i.trace_parent FROM upserted u JOIN input i ON i.dedup_key = u.dedup_key
                         WHERE u.state = \(WebhookEventState.queued.sqlLiteral)),
            -- The queue's fragment: a reconcile job for each row of to_queue (see JobInsert).
            \(enqueue(maxAttempts: 1).text)
            -- A new event whose body id an earlier event of the same item had, with another body
            -- (by the item's index: an item has few events; the statement sees only earlier rows).
            -- With each row, the batch's count of new jobs and those inserted claimed (handed to
            -- this process's worker once durable).
            SELECT u.id, u.dedup_key, u.inserted,
                   u.inserted AND u.event_id IS NOT NULL AND u.entrupy_id IS NOT NULL AND EXISTS (
                       SELECT 1 FROM webhook_events o
                       WHERE o.entrupy_id = u.entrupy_id AND o.event_id = u.event_id AND o.body_sha256 <> u.body_sha256) AS reused,
                   (SELECT count(*)::int4 FROM enqueued) AS enqueued, l.ids AS leased_ids, l.args AS leased_args
            FROM upserted u CROSS JOIN enqueued_leased l
            """)
        static let sql = named.text

        /// The reconcile jobs, inserted by the queue's fragment in this statement.
        static func enqueue(maxAttempts: Int) -> JobInsert<ReconcileWebhookJob> {
            JobInsert(as: "enqueued", forEachRowOf: "to_queue", traceParentColumn: "to_queue.trace_parent", maxAttempts: maxAttempts)
        }

        /// The batch's distinct events, each with how many repeats of it the batch held.
        let events: [(event: NewWebhookEvent, repeats: Int)]
        let reconcileMaxAttempts: Int
        /// This process's worker, when it runs one.
        let handoff: (any JobAdopter)?

        func makeBindings() -> PostgresBindings {
            values.bindings(for: Self.named)
        }

        /// The batch's values by name.
        var values: NamedBindings {
            var nulls = [Int](repeating: 0, count: events.count)
            func column(_ bit: Nullable, _ value: (NewWebhookEvent) -> String?) -> [String] {
                events.enumerated().map { row, entry in
                    guard let text = value(entry.event) else { nulls[row] |= bit.rawValue; return "" }
                    return text
                }
            }
            func text(_ value: String?) -> String? { StoredText.clean(value, maxCharacters: 10_000) }
            var values = NamedBindings()
            values.set("dedup_keys", events.map { StoredText.clean($0.event.parsed.dedupKey) })
            values.set("event_ids", column(.eventID) { text($0.parsed.identifiers.eventID) })
            values.set("event_types", column(.eventType) { text($0.parsed.identifiers.eventType) })
            values.set("entrupy_ids", column(.entrupyID) { text($0.parsed.identifiers.entrupyID) })
            values.set("customer_item_ids", column(.customerItemID) { text($0.parsed.identifiers.customerItemID) })
            values.set("states", events.map(\.event.parsed.state.rawValue))
            values.set("parse_errors", column(.parseError) { text($0.parsed.parseError) })
            values.set("verified_by", events.map(\.event.verifiedBy.rawValue))
            values.set("bodies", events.map { ByteBuffer(bytes: $0.event.body) })
            values.set("body_sha256s", events.map(\.event.parsed.bodySHA256))
            values.set("headers", events.map(\.event.headersJSON))
            values.set("client_addresses", column(.clientAddress) { $0.clientAddress })
            values.set("request_ids", column(.requestID) { $0.requestID })
            values.set("trace_parents", column(.traceParent) { $0.traceParent.map { StoredText.clean($0, maxCharacters: 128) } })
            values.set("repeats", events.map(\.repeats))
            // Last: every column above has set its bits.
            values.set("nulls", nulls)
            values.merge(Self.enqueue(maxAttempts: reconcileMaxAttempts).values(leasingTo: handoff))
            return values
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }
}
