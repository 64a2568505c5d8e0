import PostgresNIO
import RelayDatabase

extension PostgresJobQueue {
    /// Completes a batch of runs that all completed and wrote nothing else: the same outcome
    /// as `finish`'s general statement, in one a third as costly to plan. The worker runs it
    /// for every batch, so it is prepared once per connection (parsed once, soon planned once).
    struct CompleteStatement: PostgresPreparedStatement {
        /// The IDs of the runs it completed (a run whose lease was lost is not among them).
        typealias Row = Int64
        static let name = "jobs_complete"
        static let sql = """
            UPDATE jobs j SET state = $1, finished_at = now(), lease_expires_at = NULL
            FROM unnest($2::bigint[], $3::int[]) AS i (id, attempt)
            WHERE j.id = i.id AND j.attempt = i.attempt AND j.state = $4 AND j.leased_by = $5
            RETURNING j.id
            """

        let runs: [JobFinish]
        let worker: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            try bindings.append(JobState.completed)
            bindings.append(runs.map(\.id))
            bindings.append(runs.map(\.attempt))
            try bindings.append(JobState.running)
            bindings.append(worker)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            var cells = PostgresRowCells(row)
            return try cells.next()
        }
    }
}
