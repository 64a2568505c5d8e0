import Foundation
import PostgresNIO
import RelayCore
import RelayQueue

/// The one statement that commits a reconcile, in its three forms (a fetch that changed the
/// stored item or confirmed it, the same with the deliveries it planned, and a stale fetch,
/// which only records itself). Each is a compare-and-swap: it writes only while the item is
/// stored as the change was computed against (its basis), and otherwise writes nothing and
/// answers 0 items, so the caller diffs again. Every reconcile runs one, so their texts never
/// change and each connection prepares them once: PostgreSQL parses them once and soon plans
/// them once, where a statement built per call was parsed and planned every time (the notify
/// benchmark's profile: more PostgreSQL CPU went into planning than into running).
extension PostgresReconcileStore {
    /// Writes the item's current state (`stored`: one row when written), appends the
    /// transitions to its timeline (`events`), records the fetch and marks the events it
    /// answers. The write is guarded by the basis: a new item (no basis) is only inserted, so
    /// when another worker stored it first `stored` is empty; a stored one is updated only
    /// while its row still holds the basis (and not inserted again if its row is gone). The
    /// update locks the row (waiting for a concurrent writer to commit, then comparing with
    /// what it committed), and every other CTE writes only when `stored` has its row, so a
    /// refused statement writes nothing. Answers (items written, other events covered, and no
    /// deliveries). A change with deliveries takes `StoreWithDeliveriesStatement`: one text for
    /// both would make every connection plan the deliveries' CTEs too, for reconciles that
    /// have none (reconcile.sh's first second: p50 133 ms against 56 for the five-round-trip
    /// commit, while connections planned it).
    struct StoreStatement: PostgresPreparedStatement {
        typealias Row = PostgresReconcileStore.Written
        static let name = "reconcile_store"
        static let sql = PostgresReconcileStore.storeText(deliveries: false)

        let change: ReconcileChange
        /// `change.item` as it can be stored (`storable`).
        let item: EntrupyItem

        func makeBindings() -> PostgresBindings {
            PostgresReconcileStore.storeBindings(change, item: item, capacity: PostgresReconcileStore.storeParameterCount)
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresReconcileStore.Written(row)
        }
    }

    /// `StoreStatement` that also inserts the planned deliveries with their jobs, each pointing
    /// at its transition's timeline row (`numbered`); answers the new deliveries and the IDs and
    /// arguments of their jobs leased to the worker.
    struct StoreWithDeliveriesStatement: PostgresPreparedStatement {
        typealias Row = PostgresReconcileStore.Written
        static let name = "reconcile_store_deliveries"
        static let sql = PostgresReconcileStore.storeText(deliveries: true)

        let change: ReconcileChange
        /// `change.item` as it can be stored (`storable`).
        let item: EntrupyItem
        /// The worker the deliveries' jobs are inserted leased to, if any.
        let lease: JobLease?

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresReconcileStore.storeBindings(
                change, item: item, capacity: PostgresReconcileStore.storeParameterCount + PostgresDeliveryRepository.insertParameterCount)
            PostgresDeliveryRepository.appendInsertBindings(change.deliveries, lease: lease, to: &bindings)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresReconcileStore.Written(row)
        }
    }

    /// The text of `StoreStatement`, or with `deliveries` of `StoreWithDeliveriesStatement`.
    static func storeText(deliveries: Bool) -> String {
        """
            WITH updated AS (
                -- A stored item changes only while its row holds the basis. Under READ COMMITTED
                -- the UPDATE waits for a concurrent writer of the row, then checks its basis
                -- against what that writer committed; a row deleted meanwhile is not written.
                UPDATE items SET customer_item_id = $2::text, result = $3::text, result_final = $4::bool,
                       result_header = $5::text, result_message = $6::text, flag = $7::text, brand = $8::text,
                       model = $9::text, category = $10::text, username = $11::text, certificate_url = $12::text,
                       submitted_at = $13::timestamptz, fetched_at = $14::timestamptz, raw = $15::text::jsonb,
                       updated_at = CASE WHEN $16::bool THEN now() ELSE items.updated_at END
                WHERE entrupy_id = $1::text AND NOT $17::bool AND \(PostgresReconcileStore.basisText(row: "items", first: 27))
                -- A data-modifying CTE always runs, so the item is written even with no transitions.
                RETURNING entrupy_id),
            inserted AS (
                -- A new item (no basis) is only inserted: if another worker stores it first,
                -- this waits for that insert, then inserts nothing.
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, result_header, result_message, flag,
                                   brand, model, category, username, certificate_url, submitted_at, fetched_at, raw)
                SELECT $1::text, $2::text, $3::text, $4::bool, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
                       $11::text, $12::text, $13::timestamptz, $14::timestamptz, $15::text::jsonb
                WHERE $17::bool
                ON CONFLICT (entrupy_id) DO NOTHING
                RETURNING entrupy_id),
            stored AS (SELECT entrupy_id FROM updated UNION ALL SELECT entrupy_id FROM inserted),
            events AS (
                INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id, occurred_at, submitted_at)
                SELECT stored.entrupy_id, kind, nullif(from_value, ''), nullif(to_value, ''), $18::text, $19::int8, $14::timestamptz,
                       CASE WHEN kind = 'result.final' THEN $13::timestamptz END
                FROM stored, unnest($20::text[], $21::text[], $22::text[]) WITH ORDINALITY AS t (kind, from_value, to_value, position)
                ORDER BY position
                RETURNING id),
            """ + (deliveries ? """
            -- The timeline rows take their IDs in the transitions' order.
            numbered AS (SELECT id, (row_number() OVER (ORDER BY id) - 1)::int AS transition FROM events),
            """ : "") + PostgresReconcileStore.recordFetchText(entrupyID: "$1::text", source: "$18::text", event: "$19::int8", outcome: "$23::text",
                                  transitions: "$24::int", at: "$14::timestamptz", note: "$25::text", covering: "$26::timestamptz",
                                  gate: "stored")
            + (deliveries ? PostgresDeliveryRepository.insertText(events: "numbered", firstParameter: storeParameterCount + 1) + """
            SELECT (SELECT count(*) FROM stored)::int8, (SELECT count(*) FROM covered)::int8, (SELECT count(*) FROM created)::int8,
                   coalesce((SELECT array_agg(id ORDER BY id) FROM enqueued WHERE leased_by IS NOT NULL), '{}')::int8[],
                   coalesce((SELECT array_agg(args::text ORDER BY id) FROM enqueued WHERE leased_by IS NOT NULL), '{}')::text[]
            """ : "SELECT (SELECT count(*) FROM stored)::int8, (SELECT count(*) FROM covered)::int8, 0::int8, '{}'::int8[], '{}'::text[]")
    }

    /// How many parameters `storeBindings` binds ($1 to $30); the deliveries' follow them.
    static let storeParameterCount = 30

    /// The first `storeParameterCount` parameters of either store statement: the item, the
    /// change and its basis.
    static func storeBindings(_ change: ReconcileChange, item: EntrupyItem, capacity: Int) -> PostgresBindings {
        let changed = change.basedOn?.snapshot != item.snapshot
        var bindings = PostgresBindings(capacity: capacity)
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
        PostgresReconcileStore.appendBasis(change.basedOn, to: &bindings)
        assert(bindings.count == storeParameterCount, "the store statements' deliveries start at $\(storeParameterCount + 1)")
        return bindings
    }

    /// A stale fetch (the stored item is newer than what it saw): records the fetch only,
    /// while the item's row (`locked`) still holds the basis. Answers as `StoreStatement` does
    /// (one item when recorded, no deliveries).
    struct RecordStaleStatement: PostgresPreparedStatement {
        typealias Row = PostgresReconcileStore.Written
        static let name = "reconcile_record_stale"
        static let sql = """
            WITH locked AS (SELECT FROM items WHERE entrupy_id = $1::text AND \(PostgresReconcileStore.basisText(row: "items", first: 8))
                            FOR UPDATE),
            """ + PostgresReconcileStore.recordFetchText(entrupyID: "$1::text", source: "$2::text", event: "$3::int8", outcome: "'stale'",
                              transitions: "$4::int", at: "$5::timestamptz", note: "$6::text", covering: "$7::timestamptz",
                              gate: "locked")
            + "SELECT (SELECT count(*) FROM locked)::int8, (SELECT count(*) FROM covered)::int8, 0::int8, '{}'::int8[], '{}'::text[]"
        let change: ReconcileChange
        let item: EntrupyItem
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 11)
            bindings.append(item.entrupyID)
            bindings.append(change.source.label)
            bindings.append(change.source.webhookEventID)
            bindings.append(change.transitions.count)
            bindings.append(change.observedAt)
            bindings.append(change.item.storageNote) // the fetched item: `item` has no U+0000 left to note
            bindings.append(PostgresReconcileStore.coveringTime(change))
            PostgresReconcileStore.appendBasis(change.basedOn, to: &bindings)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresReconcileStore.Written(row)
        }
    }
    /// The CTEs that record the fetch (`recorded`: one row per fetch that reached the store,
    /// for the item's timeline, at the time the answer was requested like the transitions it
    /// caused) and mark the webhook event that asked for it processed, with every other queued
    /// one about the item that arrived before the fetch was requested (`covered`), each only
    /// when the CTE `gate` has a row (the write was not refused). Each argument is the
    /// statement's parameter (or SQL) for that value.
    static func recordFetchText(entrupyID: String, source: String, event: String, outcome: String, transitions: String,
                                at: String, note: String, covering: String, gate: String) -> String {
        "recorded AS (INSERT INTO reconciliations (entrupy_id, source, webhook_event_id, outcome, transitions, at, note) "
            + "SELECT \(entrupyID), \(source), \(event), \(outcome), \(transitions), \(at), \(note) FROM \(gate))"
            + PostgresWebhookEventRepository.markReconciledText(event: event, entrupyID: entrupyID, covering: covering, gate: gate)
    }

    /// The condition that `row` (the items row, in SQL) still holds the basis, whose four
    /// parameters start at `$first` (`appendBasis`). The time is compared to the microsecond
    /// either side: it went through a `Date` (a `Double`) on its way back, and an answer
    /// requested a microsecond apart from the stored one cannot have been diffed differently
    /// (the diff reads the state, not the time).
    static func basisText(row: String, first: Int) -> String {
        "\(row).result IS NOT DISTINCT FROM $\(first)::text AND \(row).result_final = $\(first + 1)::bool "
            + "AND \(row).flag = $\(first + 2)::text AND \(row).fetched_at BETWEEN $\(first + 3)::timestamptz - interval '1 microsecond' "
            + "AND $\(first + 3)::timestamptz + interval '1 microsecond'"
    }

    /// The basis's four parameters for `basisText` (all NULL for none: no row holds it).
    static func appendBasis(_ basis: StoredItemState?, to bindings: inout PostgresBindings) {
        bindings.append(basis?.snapshot.result)
        bindings.append(basis?.snapshot.resultFinal)
        bindings.append(basis?.snapshot.flag)
        bindings.append(basis?.fetchedAt)
    }

    /// Until when a fetch covers the other queued events about its item: the time it was
    /// requested; none for a search answer (`sync`), which may lag behind the item itself.
    static func coveringTime(_ change: ReconcileChange) -> Date? {
        change.source == .sync ? nil : change.observedAt
    }
}
