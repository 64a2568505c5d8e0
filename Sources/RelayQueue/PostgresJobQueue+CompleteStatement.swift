import PostgresNIO
import RelayDatabase

extension PostgresJobQueue {
    /// Completes a batch of runs that all completed and wrote nothing else: the same outcome
    /// as `finish`'s general statement, in one a third as costly to plan. The worker runs it
    /// for every batch, so it is prepared once per connection (parsed once, soon planned once).
    /// Its plan is kept: the arrays reach unnest through a materialized CTE, so no plan knows a
    /// batch's size, and the states are literals, so the generic plan can use the index of
    /// running jobs. With the arrays as unnest's arguments and the states as values, a custom
    /// plan always looked cheaper than the generic one and every run was planned again (838
    /// plans in 836 runs, 0.15 ms each, at 50 webhooks a second).
    struct CompleteStatement: PostgresPreparedStatement {
        /// The IDs of the runs it completed (a run whose lease was lost is not among them).
        typealias Row = Int64
        static let name = "jobs_complete"
        static let sql = """
            WITH batch AS MATERIALIZED (SELECT $1::bigint[] AS ids, $2::int[] AS attempts)
            UPDATE jobs j SET state = \(JobState.completed.sqlLiteral), finished_at = now(), lease_expires_at = NULL
            FROM batch b, unnest(b.ids, b.attempts) AS i (id, attempt)
            WHERE j.id = i.id AND j.attempt = i.attempt AND j.state = \(JobState.running.sqlLiteral) AND j.leased_by = $3
            RETURNING j.id
            """

        let runs: [JobFinish]
        let worker: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(runs.map(\.id))
            bindings.append(runs.map(\.attempt))
            bindings.append(worker)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            var cells = PostgresRowCells(row)
            return try cells.next()
        }
    }
}
