import PostgresNIO
import RelayCore
import RelayDatabase

extension PostgresJobQueue {
    /// Records how runs ended, with the handlers' writes of one `Record` type as CTEs:
    /// `completed`; `retryable` after a snooze (the attempt is given back) or a retry; `dead`
    /// after a discard or a retry with no attempt left. Answers each recorded run's new
    /// state. Its text depends only on `Record`, so each connection prepares it once
    /// (planning this statement was most of its cost in the notify benchmark's profile).
    struct FinishStatement<Record: JobRecordWrite>: PostgresPreparedStatement {
        typealias Row = (Int64, JobState)

        /// Unique per record type, and short: PostgreSQL cuts names at 63 bytes.
        static var name: String { "jobs_finish_" + Record.recordName }

        /// Made once per record type (`NamedSQL.cached`): its text depends only on `Record`.
        static var named: NamedSQL { NamedSQL.cached(name) { NamedSQL(text) } }
        static var sql: String { named.text }

        private static var text: String {
            let records = Record.writeText(named: "record")
            // The handlers' writes come first, and the jobs' update waits for them (the scalar
            // subquery below runs before it touches a row): rows of other tables are locked
            // before job rows, the order every transaction that takes both keeps (a redrive
            // locks its delivery, then its job), so the two cannot deadlock.
            let waitForRecords = records.isEmpty ? "" : " AND (SELECT count(*) FROM record) >= 0"
            return """
                WITH input AS (SELECT * FROM unnest(:ids::bigint[], :attempts::int[], :actions::text[], :delays_ms::bigint[], :errors::text[])
                               AS i (id, attempt, action, delay_ms, error))\(records),
                decided AS (
                    SELECT i.*, CASE
                        WHEN i.action = 'complete' THEN \(JobState.completed.sqlLiteral)
                        WHEN i.action = 'discard' OR (i.action = 'retry' AND j.attempt >= j.max_attempts) THEN \(JobState.dead.sqlLiteral)
                        ELSE \(JobState.retryable.sqlLiteral) END AS next_state
                    FROM input i JOIN jobs j ON j.id = i.id),
                updated AS (
                    UPDATE jobs j SET
                        state = d.next_state,
                        attempt = CASE WHEN d.action = 'snooze' THEN greatest(j.attempt - 1, 0) ELSE j.attempt END,
                        finished_at = CASE WHEN d.next_state = \(JobState.retryable.sqlLiteral) THEN NULL ELSE now() END,
                        scheduled_at = CASE WHEN d.next_state = \(JobState.retryable.sqlLiteral) THEN now() + d.delay_ms * interval '1 millisecond'
                                            ELSE j.scheduled_at END,
                        lease_expires_at = NULL,
                        errors = CASE WHEN d.error = '' THEN j.errors ELSE j.errors || jsonb_build_array(jsonb_build_object(
                            'at', now(), 'attempt', j.attempt, 'worker', j.leased_by, 'error', d.error,
                            'retry_in_ms', CASE WHEN d.next_state = \(JobState.retryable.sqlLiteral) THEN d.delay_ms END)) END
                    FROM decided d
                    WHERE j.id = d.id AND j.attempt = d.attempt AND j.state = \(JobState.running.sqlLiteral)\(waitForRecords) AND j.leased_by = :worker::text
                    RETURNING j.id, j.state)
                SELECT id, state FROM updated
                """
        }

        let runs: [JobFinish]
        let records: [Record]
        let worker: String

        func makeBindings() -> PostgresBindings {
            values.bindings(for: Self.named)
        }

        var values: NamedBindings {
            let columns = runs.map(\.columns)
            var values = NamedBindings()
            values.set("ids", runs.map(\.id))
            values.set("attempts", runs.map(\.attempt))
            values.set("actions", columns.map(\.action))
            values.set("delays_ms", columns.map(\.delayMilliseconds))
            values.set("errors", columns.map(\.error))
            values.set("worker", worker)
            Record.setValues(records, named: "record", in: &values)
            return values
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            try row.decode(Row.self)
        }
    }
}
