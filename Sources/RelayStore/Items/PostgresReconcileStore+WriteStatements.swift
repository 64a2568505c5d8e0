import Foundation
import PostgresNIO
import RelayCore

/// The one statement of a reconcile's transaction that writes what the fetch found, in its
/// two forms (a fetch that changed the stored item or confirmed it, and a stale fetch, which
/// only records itself). Every reconcile runs one, so their texts never change and each
/// connection prepares them once: PostgreSQL parses them once and soon plans them once, where
/// a statement built per call was parsed and planned every time (the notify benchmark's
/// profile: more PostgreSQL CPU went into planning than into running).
extension PostgresReconcileStore {
    /// Writes the item's current state (`stored`: one row when written; a `new` item is only
    /// inserted, so when another worker stored it first `stored` is empty and the commit is
    /// refused), appends the transitions to its timeline (`events`: their IDs in order), and
    /// records the fetch. Answers (items written, the timeline IDs, other events covered).
    struct StoreStatement: PostgresPreparedStatement {
        typealias Row = (Int64, [Int64], Int64)
        static let name = "reconcile_store"
        static let sql = """
            WITH stored AS (
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, result_header, result_message, flag,
                                   brand, model, category, username, certificate_url, submitted_at, fetched_at, raw)
                VALUES ($1::text, $2::text, $3::text, $4::bool, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
                        $11::text, $12::text, $13::timestamptz, $14::timestamptz, $15::text::jsonb)
                ON CONFLICT (entrupy_id) DO UPDATE SET
                    customer_item_id = EXCLUDED.customer_item_id, result = EXCLUDED.result,
                    result_final = EXCLUDED.result_final, result_header = EXCLUDED.result_header,
                    result_message = EXCLUDED.result_message, flag = EXCLUDED.flag, brand = EXCLUDED.brand,
                    model = EXCLUDED.model, category = EXCLUDED.category, username = EXCLUDED.username,
                    certificate_url = EXCLUDED.certificate_url, submitted_at = EXCLUDED.submitted_at,
                    fetched_at = EXCLUDED.fetched_at, raw = EXCLUDED.raw,
                    updated_at = CASE WHEN $16::bool THEN now() ELSE items.updated_at END
                WHERE NOT $17::bool
                -- A data-modifying CTE always runs, so the item is written even with no transitions.
                RETURNING entrupy_id),
            events AS (
                INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id, occurred_at, submitted_at)
                SELECT stored.entrupy_id, kind, nullif(from_value, ''), nullif(to_value, ''), $18::text, $19::int8, $14::timestamptz,
                       CASE WHEN kind = 'result.final' THEN $13::timestamptz END
                FROM stored, unnest($20::text[], $21::text[], $22::text[]) WITH ORDINALITY AS t (kind, from_value, to_value, position)
                ORDER BY position
                RETURNING id),
            """ + PostgresReconcileStore.recordFetchText(entrupyID: "$1::text", source: "$18::text", event: "$19::int8", outcome: "$23::text",
                                  transitions: "$24::int", at: "$14::timestamptz", note: "$25::text", covering: "$26::timestamptz") + """
            SELECT (SELECT count(*) FROM stored)::int8, coalesce((SELECT array_agg(id ORDER BY id) FROM events), '{}')::int8[],
                   (SELECT count(*) FROM covered)::int8
            """

        let change: ReconcileChange
        /// `change.item` as it can be stored (`storable`).
        let item: EntrupyItem

        func makeBindings() -> PostgresBindings {
            let changed = change.basedOn?.snapshot != item.snapshot
            var bindings = PostgresBindings(capacity: 26)
            bindings.append(item.entrupyID)
            bindings.append(item.customerItemID)
            bindings.append(item.result)
            bindings.append(item.resultFinal)
            bindings.append(item.resultHeader)
            bindings.append(item.resultMessage)
            bindings.append(item.flag)
            bindings.append(item.brand)
            bindings.append(item.model)
            bindings.append(item.category)
            bindings.append(item.username)
            bindings.append(item.certificateURL)
            bindings.append(item.submittedAt)
            bindings.append(change.observedAt)
            bindings.append(item.raw.jsonText)
            bindings.append(changed)
            bindings.append(change.basedOn == nil)
            bindings.append(change.source.label)
            bindings.append(change.source.webhookEventID)
            bindings.append(change.transitions.map(\.kind.rawValue))
            bindings.append(change.transitions.map { StoredText.clean($0.from ?? "") })
            bindings.append(change.transitions.map { StoredText.clean($0.to ?? "") })
            bindings.append(change.basedOn == nil ? "created" : (changed ? "changed" : "unchanged"))
            bindings.append(change.transitions.count)
            bindings.append(change.item.storageNote) // the fetched item: `item` has no U+0000 left to note
            bindings.append(PostgresReconcileStore.coveringTime(change))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    /// A stale fetch (the stored item is newer than what it saw): records the fetch only.
    /// Answers as `StoreStatement` does.
    struct RecordStaleStatement: PostgresPreparedStatement {
        typealias Row = (Int64, [Int64], Int64)
        static let name = "reconcile_record_stale"
        static let sql = "WITH "
            + PostgresReconcileStore.recordFetchText(entrupyID: "$1::text", source: "$2::text", event: "$3::int8", outcome: "'stale'",
                              transitions: "$4::int", at: "$5::timestamptz", note: "$6::text", covering: "$7::timestamptz")
            + "SELECT 1::int8, '{}'::int8[], (SELECT count(*) FROM covered)::int8"

        let change: ReconcileChange
        let item: EntrupyItem

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 7)
            bindings.append(item.entrupyID)
            bindings.append(change.source.label)
            bindings.append(change.source.webhookEventID)
            bindings.append(change.transitions.count)
            bindings.append(change.observedAt)
            bindings.append(change.item.storageNote) // the fetched item: `item` has no U+0000 left to note
            bindings.append(PostgresReconcileStore.coveringTime(change))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }

    /// The CTEs that record the fetch (`recorded`: one row per fetch that reached the store,
    /// for the item's timeline, at the time the answer was requested like the transitions it
    /// caused) and mark the webhook event that asked for it processed, with every other queued
    /// one about the item that arrived before the fetch was requested (`covered`). Each
    /// argument is the statement's parameter (or SQL) for that value.
    static func recordFetchText(entrupyID: String, source: String, event: String, outcome: String, transitions: String,
                                at: String, note: String, covering: String) -> String {
        "recorded AS (INSERT INTO reconciliations (entrupy_id, source, webhook_event_id, outcome, transitions, at, note) "
            + "VALUES (\(entrupyID), \(source), \(event), \(outcome), \(transitions), \(at), \(note)))"
            + PostgresWebhookEventRepository.markReconciledText(event: event, entrupyID: entrupyID, covering: covering)
    }

    /// Until when a fetch covers the other queued events about its item: the time it was
    /// requested; none for a search answer (`sync`), which may lag behind the item itself.
    static func coveringTime(_ change: ReconcileChange) -> Date? {
        change.source == .sync ? nil : change.observedAt
    }
}
