import PostgresNIO
import RelayCore
import RelayDatabase
import RelayQueue

extension PostgresDeliveryRepository {
    /// The text of the CTEs that insert planned deliveries and, through the queue's enqueue
    /// text, their `deliver` jobs, for the one statement that also writes the transitions they
    /// were planned for (the reconcile's). `events` names a CTE with a timeline row's `id` and
    /// the index of its transition among the change's (`transition`, from 0); a delivery whose
    /// transition has no row there is not inserted, so a refused write inserts none. The unique
    /// (transition, rule, action) key makes a repeat a no-op. Its parameters are named
    /// `:delivery_…` and `:enqueued_…`, set by `setInsertValues`. With a lease, the jobs
    /// are inserted claimed by its worker (read them with `leasedJobs`); without one, the
    /// caller wakes the workers once the statement has committed. Defines `created` (the new
    /// deliveries' IDs) and `enqueued` (their jobs' `id`, `args`, `leased_by`); appended after
    /// another CTE.
    static func insertText(events: String) -> String {
        """
            ,
            created AS (
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id)
                SELECT \(events).id, input.entrupy_id, input.rule, input.action_index, input.channel, input.target,
                       input.payload::jsonb, nullif(input.signing_key_id, '')
                FROM unnest(:delivery_transitions::int[], :delivery_entrupy_ids::text[], :delivery_rules::text[],
                            :delivery_action_indexes::int[], :delivery_channels::text[], :delivery_targets::text[],
                            :delivery_payloads::text[], :delivery_signing_key_ids::text[])
                     WITH ORDINALITY AS input (transition, entrupy_id, rule, action_index, channel, target, payload, signing_key_id, position)
                JOIN \(events) ON \(events).transition = input.transition
                ORDER BY input.position
                ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING
                RETURNING id)
            """ + PostgresJobQueue.enqueueText(name: "enqueued", from: "created", leased: true)
    }

    /// The values of `insertText`'s parameters.
    static func setInsertValues(_ planned: [PlannedDelivery], lease: JobLease?, in values: inout NamedBindings) {
        values.set("delivery_transitions", planned.map { Int32(clamping: $0.transitionIndex) })
        values.set("delivery_entrupy_ids", planned.map(\.entrupyID))
        values.set("delivery_rules", planned.map(\.rule))
        values.set("delivery_action_indexes", planned.map(\.actionIndex))
        values.set("delivery_channels", planned.map(\.channel.rawValue))
        values.set("delivery_targets", planned.map(\.target))
        values.set("delivery_payloads", planned.map(\.payload.json.jsonText))
        values.set("delivery_signing_key_ids", planned.map { $0.signingKeyID ?? "" })
        PostgresJobQueue.setEnqueueValues(DeliverJob.self, named: "enqueued", maxAttempts: DeliverJob.maxAttempts, lease: lease,
                                          leased: true, in: &values)
    }

    /// The `deliver` jobs an `insertText` statement inserted leased, from the IDs and
    /// arguments (as text) it returned.
    static func leasedJobs(ids: [Int64], args: [String]) -> [ClaimedJob] {
        PostgresJobQueue.leasedJobs(kind: DeliverJob.kind, maxAttempts: DeliverJob.maxAttempts, ids: ids, args: args)
    }
}
