import NIOCore
import PostgresNIO
import RelayCore
import RelayQueue

extension PostgresWebhookEventRepository {
    /// Stores a batch of events (one array per column, repeats inside the batch already
    /// collapsed) and queues a reconcile job for each one queued; answers (id, dedup key,
    /// inserted) per event. The receiver runs it for every batch, so its text never changes
    /// and each connection prepares it once: PostgreSQL parses it once and soon plans it once,
    /// where a statement with a row of values per event was parsed and planned every time.
    /// Arrays cannot hold NULL here (postgres-nio encodes no optional elements), so each
    /// nullable column travels as text with a bit in `$8` saying which values are NULL.
    struct StoreStatement: PostgresPreparedStatement {
        typealias Row = (Int64, String, Bool)
        static let name = "webhook_store"

        /// Bits of the `nulls` mask, one per nullable column.
        enum Nullable: Int, CaseIterable {
            case eventID = 1, eventType = 2, entrupyID = 4, customerItemID = 8, parseError = 16, clientAddress = 32, requestID = 64
        }

        static let sql = """
            WITH input AS (
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
                       repeats, position
                FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
                            $9::text[], $10::bytea[], $11::text[], $12::text[], $13::text[], $14::text[], $15::int[])
                     WITH ORDINALITY AS i (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, parse_error, nulls,
                           verified_by, body, body_sha256, headers, client_address, request_id, repeats, position)),
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
                RETURNING w.id, w.dedup_key, w.state, (w.xmax = 0) AS inserted),
            -- A redelivery of an event the worker gave up on queues it again; one still queued
            -- gets its job back if it has none (the unique key keeps it to one).
            to_queue AS (
                SELECT jsonb_build_object($16::text, id) AS args, $17::text || id AS unique_key FROM upserted WHERE state = \(WebhookEventState.queued.sqlLiteral))
            """ + PostgresJobQueue.enqueueText(name: "enqueued", kindParameter: "$18::text", maxAttemptsParameter: "$19::int",
                                                 from: "to_queue")
            + "SELECT id, dedup_key, inserted FROM upserted"

        /// The batch's distinct events, each with how many repeats of it the batch held.
        let events: [(event: NewWebhookEvent, repeats: Int)]
        let reconcileMaxAttempts: Int

        func makeBindings() -> PostgresBindings {
            var nulls = [Int](repeating: 0, count: events.count)
            func column(_ bit: Nullable, _ value: (NewWebhookEvent) -> String?) -> [String] {
                events.enumerated().map { row, entry in
                    guard let text = value(entry.event) else { nulls[row] |= bit.rawValue; return "" }
                    return text
                }
            }
            func text(_ value: String?) -> String? { StoredText.clean(value, maxCharacters: 10_000) }
            var bindings = PostgresBindings(capacity: 19)
            bindings.append(events.map { StoredText.clean($0.event.parsed.dedupKey) })
            bindings.append(column(.eventID) { text($0.parsed.identifiers.eventID) })
            bindings.append(column(.eventType) { text($0.parsed.identifiers.eventType) })
            bindings.append(column(.entrupyID) { text($0.parsed.identifiers.entrupyID) })
            bindings.append(column(.customerItemID) { text($0.parsed.identifiers.customerItemID) })
            bindings.append(events.map(\.event.parsed.state.rawValue))
            bindings.append(column(.parseError) { text($0.parsed.parseError) })
            let clientAddresses = column(.clientAddress) { $0.clientAddress }
            let requestIDs = column(.requestID) { $0.requestID }
            bindings.append(nulls)
            bindings.append(events.map(\.event.verifiedBy.rawValue))
            bindings.append(events.map { ByteBuffer(bytes: $0.event.body) })
            bindings.append(events.map(\.event.parsed.bodySHA256))
            bindings.append(events.map(\.event.headersJSON))
            bindings.append(clientAddresses)
            bindings.append(requestIDs)
            bindings.append(events.map(\.repeats))
            bindings.append(ReconcileWebhookJob.argumentName)
            bindings.append(ReconcileWebhookJob.uniqueKeyPrefix)
            bindings.append(ReconcileWebhookJob.kind)
            bindings.append(reconcileMaxAttempts)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }
}
