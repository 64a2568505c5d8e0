import Foundation
import PostgresNIO
import RelayModel
import RelayDatabase
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
        static let named = NamedSQL(PostgresReconcileStore.storeText)
        static let sql = named.text

        let change: ReconcileChange
        /// `change.item` as it can be stored (`storable`).
        let item: EntrupyItem

        var values: NamedBindings { PostgresReconcileStore.storeValues(change, item: item) }

        func makeBindings() -> PostgresBindings {
            values.bindings(for: Self.named)
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresReconcileStore.Written(row)
        }
    }

    /// `StoreStatement` that also inserts the planned deliveries with their jobs, each pointing
    /// at its transition's timeline row (`numbered`); a delivery whose transition has no row
    /// there (a refused write) is not inserted, and the unique (transition, rule, action) key
    /// makes a repeat a no-op. Answers the new deliveries and the IDs and arguments of their
    /// jobs inserted leased to the worker.
    struct StoreWithDeliveriesStatement: PostgresPreparedStatement {
        typealias Row = PostgresReconcileStore.Written
        static let name = "reconcile_store_deliveries"
        static let named = NamedSQL(PostgresReconcileStore.storeWithDeliveriesText)
        static let sql = named.text

        /// The deliveries' `deliver` jobs, inserted by the queue's fragment in this statement:
        /// given a worker's run's follow-up lease, leased to that worker, which sends them next (`JobInsert`).
        static let deliverJobs = JobInsert<DeliverJob>(as: "enqueued", forEachRowOf: "created", maxAttempts: DeliverJob.maxAttempts)

        let change: ReconcileChange
        /// `change.item` as it can be stored (`storable`).
        let item: EntrupyItem
        /// The run's follow-up lease the deliveries' jobs go in under (`JobContext.followUps`);
        /// nil: inserted available, for the workers the commit wakes.
        let followUps: FollowUpJobs?

        var values: NamedBindings {
            var values = PostgresReconcileStore.storeValues(change, item: item)
            let planned = change.deliveries
            values.set("delivery_transitions", planned.map { Int32(clamping: $0.transitionIndex) })
            values.set("delivery_entrupy_ids", planned.map(\.entrupyID))
            values.set("delivery_rules", planned.map(\.rule))
            values.set("delivery_action_indexes", planned.map(\.actionIndex))
            values.set("delivery_channels", planned.map(\.channel.rawValue))
            values.set("delivery_targets", planned.map(\.target))
            values.set("delivery_payloads", planned.map(\.payload.json.jsonText))
            values.set("delivery_signing_key_ids", planned.map { $0.signingKeyID ?? "" })
            values.set("submitter_username", change.submitter.map { StoredText.clean($0.username) })
            values.set("submitter_unique_user_id", change.submitter?.uniqueUserID)
            values.merge(Self.deliverJobs.values(leasingTo: followUps))
            return values
        }

        func makeBindings() -> PostgresBindings {
            values.bindings(for: Self.named)
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresReconcileStore.Written(row)
        }
    }

    /// The CTEs both store statements begin with: the item's write, its transitions and the
    /// fetch's record (`StoreStatement` explains them). `firstCTEs`: more CTEs to put first,
    /// and `gate`: a further condition of the item's write.
    static func storeItemCTEs(firstCTEs: String = "", gate: String = "true") -> String {
        """
            WITH \(firstCTEs)\(forgottenCTE),
            updated AS (
                -- A stored item changes only while its row holds the basis. Under READ COMMITTED
                -- the UPDATE waits for a concurrent writer of the row, then checks its basis
                -- against what that writer committed; a row deleted meanwhile is not written.
                UPDATE items SET customer_item_id = :customer_item_id::text, result = :result::text, result_final = :result_final::bool,
                       result_header = :result_header::text, result_message = :result_message::text, flag = :flag::text,
                       brand = :brand::text, model = :model::text, category = :category::text, username = :username::text,
                       certificate_url = :certificate_url::text, submitted_at = :submitted_at::timestamptz,
                       fetched_at = :observed_at::timestamptz, raw = :raw::text::jsonb,
                       updated_at = CASE WHEN :changed::bool THEN now() ELSE items.updated_at END,
                       erased_at = CASE WHEN :people_erased::bool THEN coalesce(items.erased_at, now()) ELSE items.erased_at END
                WHERE entrupy_id = :entrupy_id::text AND NOT :is_new::bool AND \(holdsBasis) AND \(clearOfErasures) AND \(gate)
                -- A data-modifying CTE always runs, so the item is written even with no transitions.
                RETURNING entrupy_id),
            inserted AS (
                -- A new item (no basis) is only inserted: if another worker stores it first,
                -- this waits for that insert, then inserts nothing.
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, result_header, result_message, flag,
                                   brand, model, category, username, certificate_url, submitted_at, fetched_at, raw, erased_at)
                SELECT :entrupy_id::text, :customer_item_id::text, :result::text, :result_final::bool, :result_header::text,
                       :result_message::text, :flag::text, :brand::text, :model::text, :category::text, :username::text,
                       :certificate_url::text, :submitted_at::timestamptz, :observed_at::timestamptz, :raw::text::jsonb,
                       CASE WHEN :people_erased::bool THEN now() END
                WHERE :is_new::bool AND \(clearOfErasures) AND \(gate)
                ON CONFLICT (entrupy_id) DO NOTHING
                RETURNING entrupy_id),
            stored AS (SELECT entrupy_id FROM updated UNION ALL SELECT entrupy_id FROM inserted),
            events AS (
                INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, webhook_event_id, occurred_at, submitted_at)
                SELECT stored.entrupy_id, kind, nullif(from_value, ''), nullif(to_value, ''), :source::text, :webhook_event_id::int8,
                       :observed_at::timestamptz, CASE WHEN kind = 'result.final' THEN :submitted_at::timestamptz END
                FROM stored, unnest(:kinds::text[], :froms::text[], :tos::text[]) WITH ORDINALITY AS t (kind, from_value, to_value, position)
                ORDER BY position
                RETURNING id, kind),
            \(recordFetch(gate: "stored"))
            """
    }

    /// The text of `StoreStatement`.
    static let storeText = storeItemCTEs() + """

            SELECT (SELECT count(*) FROM stored)::int8, (SELECT count(*) FROM covered)::int8, 0::int8, '{}'::int8[], '{}'::text[],
                   \(refusedForErasure), false
            """

    /// `submitter.current`: the submitter's ID the deliveries were rendered with
    /// (`:submitter_unique_user_id`, looked up for `:submitter_username`; no username: none
    /// was) is still the SDK users mirror's. One probe of `sdk_users_username`.
    static let submitterCTE = """
        submitter AS (
            SELECT :submitter_username::text IS NULL
                   OR (SELECT unique_user_id FROM sdk_users WHERE username = :submitter_username::text
                       ORDER BY last_authorized_at DESC LIMIT 1) IS NOT DISTINCT FROM :submitter_unique_user_id::text AS current),

        """

    /// The text of `StoreWithDeliveriesStatement`: the deliveries and their jobs after the item's
    /// CTEs, written only while the submitter's ID they were rendered with holds.
    static let storeWithDeliveriesText = storeItemCTEs(firstCTEs: submitterCTE, gate: "(SELECT current FROM submitter)") + """
            ,
            -- How many transitions of each kind the item's timeline held before: this statement
            -- does not see its own inserts. Counted once per kind, not once per new row: the
            -- generic plan (estimating ten rows for each unnest) then costs little more than a
            -- custom one, so PostgreSQL keeps it, where it had planned every run afresh (2.6 ms
            -- of planning a reconcile in the notify benchmark).
            earlier AS (SELECT kind, count(*) AS n FROM item_events WHERE entrupy_id = :entrupy_id::text GROUP BY kind),
            -- The timeline rows take their IDs in the transitions' order. occurrence: which one
            -- of its kind each is on the item's timeline (the earlier ones and its rank among
            -- the new).
            numbered AS (
                SELECT events.id, events.kind, (row_number() OVER (ORDER BY events.id) - 1)::int AS transition,
                       row_number() OVER (PARTITION BY events.kind ORDER BY events.id) + coalesce(earlier.n, 0) AS occurrence
                FROM events LEFT JOIN earlier ON earlier.kind = events.kind),
            created AS (
                -- The idempotency key is derived from what the delivery is (see migration 20), so a
                -- transition derived again after a restore is sent under the same webhook-id.
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id,
                                        idempotency_key)
                SELECT numbered.id, input.entrupy_id, input.rule, input.action_index, input.channel, input.target,
                       input.payload::jsonb, nullif(input.signing_key_id, ''),
                       -- || and a scalar salt: without its row the key is NULL and the insert fails
                       -- loudly (NOT NULL), where a join would have inserted no delivery at all.
                       'dlv_' || left(encode(sha256(convert_to((SELECT key_salt FROM installation) || chr(31) || input.entrupy_id
                                                               || chr(31) || numbered.kind || chr(31) || numbered.occurrence::text
                                                               || chr(31) || input.rule || chr(31) || input.action_index::text,
                                                               'UTF8')), 'hex'), 32)
                FROM unnest(:delivery_transitions::int[], :delivery_entrupy_ids::text[], :delivery_rules::text[],
                            :delivery_action_indexes::int[], :delivery_channels::text[], :delivery_targets::text[],
                            :delivery_payloads::text[], :delivery_signing_key_ids::text[])
                     WITH ORDINALITY AS input (transition, entrupy_id, rule, action_index, channel, target, payload, signing_key_id, position)
                JOIN numbered ON numbered.transition = input.transition
                ORDER BY input.position
                ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING
                RETURNING id),
            -- The queue's fragment: a deliver job for each row of created (see JobInsert).
            \(StoreWithDeliveriesStatement.deliverJobs.text)
            SELECT (SELECT count(*) FROM stored)::int8, (SELECT count(*) FROM covered)::int8, (SELECT count(*) FROM created)::int8,
                   (SELECT ids FROM enqueued_leased), (SELECT args FROM enqueued_leased), \(refusedForErasure),
                   NOT (SELECT current FROM submitter)
            """

    /// The values of either store statement's item, change and basis, by name.
    static func storeValues(_ change: ReconcileChange, item: EntrupyItem) -> NamedBindings {
        let changed = change.basedOn?.snapshot != item.snapshot
        var values = NamedBindings()
        values.set("entrupy_id", item.entrupyID)
        values.set("customer_item_id", item.customerItemID)
        values.set("result", item.result)
        values.set("result_final", item.resultFinal)
        values.set("result_header", item.resultHeader)
        values.set("result_message", item.resultMessage)
        values.set("flag", item.flag)
        values.set("brand", item.brand)
        values.set("model", item.model)
        values.set("category", item.category)
        values.set("username", item.username)
        values.set("certificate_url", item.certificateURL)
        values.set("submitted_at", item.submittedAt)
        values.set("observed_at", change.observedAt)
        values.set("raw", item.raw.jsonText)
        values.set("changed", changed)
        values.set("is_new", change.basedOn == nil)
        values.set("kinds", change.transitions.map(\.kind.rawValue))
        values.set("froms", change.transitions.map { StoredText.clean($0.from ?? "") })
        values.set("tos", change.transitions.map { StoredText.clean($0.to ?? "") })
        values.set("outcome", change.basedOn == nil ? "created" : (changed ? "changed" : "unchanged"))
        setFetchValues(change, in: &values)
        setSubjectValues(change, item: item, in: &values)
        return values
    }

    /// A stale fetch (the stored item is newer than what it saw): records the fetch only,
    /// while the item's row (`locked`) still holds the basis. Answers as `StoreStatement` does
    /// (one item when recorded, no deliveries).
    struct RecordStaleStatement: PostgresPreparedStatement {
        typealias Row = PostgresReconcileStore.Written
        static let name = "reconcile_record_stale"
        static let named = NamedSQL("""
            WITH locked AS (SELECT FROM items WHERE entrupy_id = :entrupy_id::text AND \(PostgresReconcileStore.holdsBasis) FOR UPDATE),
            \(PostgresReconcileStore.recordFetch(gate: "locked"))
            SELECT (SELECT count(*) FROM locked)::int8, (SELECT count(*) FROM covered)::int8, 0::int8, '{}'::int8[], '{}'::text[], false, false
            """)
        static let sql = named.text

        let change: ReconcileChange
        let item: EntrupyItem

        var values: NamedBindings {
            var values = NamedBindings()
            values.set("entrupy_id", item.entrupyID)
            values.set("outcome", "stale")
            PostgresReconcileStore.setFetchValues(change, in: &values)
            return values
        }

        func makeBindings() -> PostgresBindings {
            values.bindings(for: Self.named)
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try PostgresReconcileStore.Written(row)
        }
    }

    /// The values every reconcile statement records with the fetch: its source, event, number
    /// of transitions, time, note, how far it covers other events, and the basis.
    static func setFetchValues(_ change: ReconcileChange, in values: inout NamedBindings) {
        values.set("source", change.source.label)
        values.set("webhook_event_id", change.source.webhookEventID)
        values.set("transition_count", change.transitions.count)
        values.set("observed_at", change.observedAt)
        values.set("note", change.item.storageNote) // the fetched item: the stored one has no U+0000 left to note
        values.set("covering", coveringTime(change))
        values.set("basis_result", change.basedOn?.snapshot.result)
        values.set("basis_result_final", change.basedOn?.snapshot.resultFinal)
        values.set("basis_flag", change.basedOn?.snapshot.flag)
        values.set("basis_fetched_at", change.basedOn?.fetchedAt)
        values.set("basis_erased", change.basedOn?.erased)
        values.set("people_erased", change.peopleErased)
    }

    /// The CTEs that record the fetch and mark its webhook events, each only when the CTE
    /// `gate` has a row (the write was not refused):
    /// - `recorded`: one row per fetch that reached the store, for the item's timeline, at the
    ///   time the answer was requested, like the transitions it caused;
    /// - `marked`: the webhook event that asked for it, processed (filling in the `:entrupy_id`
    ///   a hint by customer item ID led to);
    /// - `covered`: when `:covering` is not NULL, every other queued event about the item that
    ///   arrived before the fetch was requested: the fetch already saw what they hint at, so
    ///   their jobs find them processed and fetch nothing (coalescing). One row per event.
    static func recordFetch(gate: String) -> String {
        """
        recorded AS (INSERT INTO reconciliations (entrupy_id, source, webhook_event_id, outcome, transitions, at, note)
                     SELECT :entrupy_id::text, :source::text, :webhook_event_id::int8, :outcome::text, :transition_count::int,
                            :observed_at::timestamptz, :note::text FROM \(gate)),
        marked AS (UPDATE webhook_events SET state = \(WebhookEventState.processed.sqlLiteral), processed_at = now(), last_error = NULL,
                          entrupy_id = coalesce(entrupy_id, :entrupy_id::text), \(erasedBodyAssignments)
                   WHERE id = :webhook_event_id::int8 AND EXISTS (SELECT FROM \(gate)) RETURNING id),
        covered AS (UPDATE webhook_events SET state = \(WebhookEventState.processed.sqlLiteral), processed_at = now(), last_error = NULL,
                          \(erasedBodyAssignments)
                    WHERE :covering::timestamptz IS NOT NULL AND entrupy_id = :entrupy_id::text
                          AND state = \(WebhookEventState.queued.sqlLiteral) AND received_at <= :covering::timestamptz
                          AND EXISTS (SELECT FROM \(gate))
                          -- Not the event marked above: one statement must not update a row twice.
                          AND id IS DISTINCT FROM :webhook_event_id::int8
                    RETURNING 1)
        """
    }

    /// The condition that the items row still holds the basis (`:basis_result`,
    /// `:basis_result_final`, `:basis_flag`, `:basis_fetched_at`, `:basis_erased` (an erasure
    /// in between makes the pipeline store the item without people fields); all NULL for none: no row
    /// holds it). The time is compared to the microsecond either side: it went through a `Date`
    /// (a `Double`) on its way back, and an answer requested a microsecond apart from the stored
    /// one cannot have been diffed differently (the diff reads the state, not the time).
    static let holdsBasis = """
        items.result IS NOT DISTINCT FROM :basis_result::text AND items.result_final = :basis_result_final::bool \
        AND items.flag = :basis_flag::text AND (items.erased_at IS NOT NULL) = :basis_erased::bool \
        AND items.fetched_at BETWEEN :basis_fetched_at::timestamptz - interval '1 microsecond' \
                                 AND :basis_fetched_at::timestamptz + interval '1 microsecond'
        """

    /// Until when a fetch covers the other queued events about its item: the time it was
    /// requested; none for a search answer (`sync`), which may lag behind the item itself.
    static func coveringTime(_ change: ReconcileChange) -> Date? {
        change.source == .sync ? nil : change.observedAt
    }
}
