import PostgresNIO
import RelayCore
import RelayQueue

extension PostgresDeliveryRepository {
    /// How many parameters `insertText` takes, from its first.
    static let insertParameterCount = 15

    /// The text of the CTEs that insert planned deliveries and, through the queue's enqueue
    /// text, their `deliver` jobs, for the one statement that also writes the transitions they
    /// were planned for (the reconcile's). `events` names a CTE with a timeline row's `id` and
    /// the index of its transition among the change's (`transition`, from 0); a delivery whose
    /// transition has no row there is not inserted, so a refused write inserts none. The unique
    /// (transition, rule, action) key makes a repeat a no-op. The parameters are `$first` to
    /// `$(first + 14)`, bound by `appendInsertBindings` in the same order. With a lease, the
    /// jobs are inserted claimed by its worker (read them with `leasedJobs`); without one, the
    /// caller wakes the workers once the statement has committed. Defines `created` (the new
    /// deliveries' IDs) and `enqueued` (their jobs' `id`, `args`, `leased_by`); appended after
    /// another CTE.
    static func insertText(events: String, firstParameter first: Int) -> String {
        let p = (first..<(first + insertParameterCount)).map { "$\($0)" }
        return """
            ,
            created AS (
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id)
                SELECT \(events).id, input.entrupy_id, input.rule, input.action_index, input.channel, input.target,
                       input.payload::jsonb, nullif(input.signing_key_id, '')
                FROM unnest(\(p[0])::int[], \(p[1])::text[], \(p[2])::text[], \(p[3])::int[], \(p[4])::text[], \(p[5])::text[],
                            \(p[6])::text[], \(p[7])::text[])
                     WITH ORDINALITY AS input (transition, entrupy_id, rule, action_index, channel, target, payload, signing_key_id, position)
                JOIN \(events) ON \(events).transition = input.transition
                ORDER BY input.position
                ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING
                RETURNING id),
            to_queue AS (SELECT jsonb_build_object(\(p[8])::text, id) AS args, \(p[9])::text || id AS unique_key FROM created)
            """ + PostgresJobQueue.enqueueText(name: "enqueued", kindParameter: "\(p[10])::text", maxAttemptsParameter: "\(p[11])::int",
                                                 from: "to_queue", leaseParameters: ("\(p[12])::text", "\(p[13])::int8", "\(p[14])::int"))
    }

    /// The parameters of `insertText`, in its order.
    static func appendInsertBindings(_ planned: [PlannedDelivery], lease: JobLease?, to bindings: inout PostgresBindings) {
        bindings.append(planned.map { Int32(clamping: $0.transitionIndex) })
        bindings.append(planned.map(\.entrupyID))
        bindings.append(planned.map(\.rule))
        bindings.append(planned.map(\.actionIndex))
        bindings.append(planned.map(\.channel.rawValue))
        bindings.append(planned.map(\.target))
        bindings.append(planned.map(\.payload.json.jsonText))
        bindings.append(planned.map { $0.signingKeyID ?? "" })
        bindings.append(DeliverJob.argumentName)
        bindings.append(DeliverJob.uniqueKeyPrefix)
        bindings.append(DeliverJob.kind)
        bindings.append(DeliverJob.maxAttempts)
        bindings.append(lease?.worker)
        bindings.append(lease.map { Int64($0.duration.milliseconds) } ?? 0)
        bindings.append(Int32(clamping: lease?.limit ?? 0))
    }

    /// The `deliver` jobs an `insertText` statement inserted leased, from the IDs and
    /// arguments (as text) it returned.
    static func leasedJobs(ids: [Int64], args: [String]) -> [ClaimedJob] {
        PostgresJobQueue.leasedJobs(kind: DeliverJob.kind, maxAttempts: DeliverJob.maxAttempts, ids: ids, args: args)
    }
}
