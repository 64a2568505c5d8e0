import PostgresNIO
import RelayCore
import RelayQueue

extension PostgresDeliveryRepository {
    /// Inserts planned deliveries (one array per column) and, through the queue's enqueue
    /// text, their `deliver` jobs, leased to `lease`'s worker when there is one; answers how
    /// many deliveries were new, and the IDs and arguments of the leased jobs. Every reconcile that
    /// plans deliveries runs it, so it is prepared once per connection: PostgreSQL parses it
    /// once and soon plans it once, where a fresh statement was parsed and planned each time.
    struct InsertStatement: PostgresPreparedStatement {
        typealias Row = (Int64, [Int64], [String])
        static let name = "deliveries_insert"
        static let sql = """
            WITH created AS (
                INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id)
                SELECT item_event_id, entrupy_id, rule, action_index, channel, target, payload::jsonb, nullif(signing_key_id, '')
                FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[])
                     WITH ORDINALITY AS input (item_event_id, entrupy_id, rule, action_index, channel, target, payload, signing_key_id, position)
                ORDER BY position
                ON CONFLICT ON CONSTRAINT deliveries_once DO NOTHING
                RETURNING id),
            to_queue AS (SELECT jsonb_build_object($9::text, id) AS args, $10::text || id AS unique_key FROM created)
            """ + PostgresJobQueue.enqueueText(name: "enqueued", kindParameter: "$11::text", maxAttemptsParameter: "$12::int",
                                                 from: "to_queue", leaseParameters: ("$13::text", "$14::int8", "$15::int"))
            + """
            SELECT (SELECT count(*) FROM created)::int8,
                   coalesce((SELECT array_agg(id ORDER BY id) FROM enqueued WHERE leased_by IS NOT NULL), '{}')::int8[],
                   coalesce((SELECT array_agg(args::text ORDER BY id) FROM enqueued WHERE leased_by IS NOT NULL), '{}')::text[]
            """

        let rows: [PlannedDelivery]
        /// The timeline rows of the transitions, by `PlannedDelivery.transitionIndex`.
        let itemEventIDs: [Int64]
        /// The worker that runs the jobs next, if any (otherwise they wait to be claimed).
        let lease: JobLease?

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 15)
            bindings.append(rows.map { itemEventIDs[$0.transitionIndex] })
            bindings.append(rows.map(\.entrupyID))
            bindings.append(rows.map(\.rule))
            bindings.append(rows.map(\.actionIndex))
            bindings.append(rows.map(\.channel.rawValue))
            bindings.append(rows.map(\.target))
            bindings.append(rows.map(\.payload.jsonText))
            bindings.append(rows.map { $0.signingKeyID ?? "" })
            bindings.append(DeliverJob.argumentName)
            bindings.append(DeliverJob.uniqueKeyPrefix)
            bindings.append(DeliverJob.kind)
            bindings.append(DeliverJob.maxAttempts)
            bindings.append(lease?.worker)
            bindings.append(lease.map { Int64($0.duration.milliseconds) } ?? 0)
            bindings.append(Int32(clamping: lease?.limit ?? 0))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode((Int64, [Int64], [String]).self)
        }
    }
}
