import Logging
import PostgresNIO

extension PostgresJobQueue {
    /// Records how runs ended, many in one statement: `completed`; `retryable` after a snooze
    /// (the attempt is given back) or a retry; `dead` after a discard or a retry with no
    /// attempt left. Returns each run's new state; a run missing from the answer had lost its
    /// lease (rescued, or finished by someone else) and was left alone.
    @discardableResult
    public func finish(_ runs: [JobFinish], worker: String) async throws -> [Int64: JobState] {
        guard !runs.isEmpty else { return [:] }
        return try await client.withConnection { try await Self.finish(runs, worker: worker, on: $0, logger: logger) }
    }

    /// `finish` with the handlers' writes (`JobRecordWrite`) as CTEs of the same statement:
    /// one round trip, and what the jobs did commits with their new states or not at all.
    @discardableResult
    public static func finish(_ runs: [JobFinish], records: [any JobRecordWrite] = [], worker: String,
                              on connection: PostgresConnection, logger: Logger) async throws -> [Int64: JobState] {
        guard !runs.isEmpty else { return [:] }
        if records.isEmpty, runs.allSatisfy({ $0.outcome == .completed }) {
            return try await completed(runs, worker: worker, on: connection, logger: logger)
        }
        let columns = runs.map(\.columns)
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 2048, interpolationCount: 6)
        sql.appendLiteral("WITH input AS (SELECT * FROM unnest(")
        sql.appendInterpolation(runs.map(\.id)); sql.appendLiteral("::bigint[], ")
        sql.appendInterpolation(runs.map(\.attempt)); sql.appendLiteral("::int[], ")
        sql.appendInterpolation(columns.map(\.action)); sql.appendLiteral("::text[], ")
        sql.appendInterpolation(columns.map(\.delayMilliseconds)); sql.appendLiteral("::bigint[], ")
        sql.appendInterpolation(columns.map(\.error)); sql.appendLiteral("::text[]) AS i (id, attempt, action, delay_ms, error))")
        // The handlers' writes come first, and the jobs' update waits for them (the scalar
        // subqueries below run before it touches a row): rows of other tables are locked
        // before job rows, the order every transaction that takes both keeps (a redrive locks
        // its delivery, then its job), so the two cannot deadlock.
        var written = Set<ObjectIdentifier>()
        var names: [String] = []
        for record in records where written.insert(ObjectIdentifier(type(of: record))).inserted {
            names.append("record_\(names.count + 1)")
            type(of: record).appendMatching(records, named: names[names.count - 1], to: &sql)
        }
        sql.appendLiteral("""
            ,
            decided AS (
                SELECT i.*, CASE
                    WHEN i.action = 'complete' THEN 'completed'
                    WHEN i.action = 'discard' OR (i.action = 'retry' AND j.attempt >= j.max_attempts) THEN 'dead'
                    ELSE 'retryable' END AS next_state
                FROM input i JOIN jobs j ON j.id = i.id),
            updated AS (
                UPDATE jobs j SET
                    state = d.next_state,
                    attempt = CASE WHEN d.action = 'snooze' THEN greatest(j.attempt - 1, 0) ELSE j.attempt END,
                    finished_at = CASE WHEN d.next_state = 'retryable' THEN NULL ELSE now() END,
                    scheduled_at = CASE WHEN d.next_state = 'retryable' THEN now() + d.delay_ms * interval '1 millisecond'
                                        ELSE j.scheduled_at END,
                    lease_expires_at = NULL,
                    errors = CASE WHEN d.error = '' THEN j.errors ELSE j.errors || jsonb_build_array(jsonb_build_object(
                        'at', now(), 'attempt', j.attempt, 'worker', j.leased_by, 'error', d.error,
                        'retry_in_ms', CASE WHEN d.next_state = 'retryable' THEN d.delay_ms END)) END
                FROM decided d
                WHERE j.id = d.id AND j.attempt = d.attempt AND j.state = 'running'
            """)
        for name in names { sql.appendLiteral(" AND (SELECT count(*) FROM \(name)) >= 0") }
        sql.appendLiteral(" AND j.leased_by = ")
        sql.appendInterpolation(worker)
        sql.appendLiteral("\n    RETURNING j.id, j.state)")
        sql.appendLiteral("\nSELECT id, state FROM updated")
        let rows = try await connection.query(PostgresQuery(stringInterpolation: sql), logger: logger)
        var states: [Int64: JobState] = [:]
        for try await (id, state) in rows.decode((Int64, JobState).self) { states[id] = state }
        return states
    }

    /// The common case, a batch of runs that all completed and wrote nothing else: the same
    /// outcome as the general statement, in one a third as costly to plan (planning was most
    /// of the general one's cost in the reconcile benchmark's profile).
    private static func completed(_ runs: [JobFinish], worker: String, on connection: PostgresConnection,
                                  logger: Logger) async throws -> [Int64: JobState] {
        let rows = try await connection.query("""
            UPDATE jobs j SET state = \(JobState.completed), finished_at = now(), lease_expires_at = NULL
            FROM unnest(\(runs.map(\.id))::bigint[], \(runs.map(\.attempt))::int[]) AS i (id, attempt)
            WHERE j.id = i.id AND j.attempt = i.attempt AND j.state = \(JobState.running) AND j.leased_by = \(worker)
            RETURNING j.id, j.state
            """, logger: logger)
        var states: [Int64: JobState] = [:]
        for try await (id, state) in rows.decode((Int64, JobState).self) { states[id] = state }
        return states
    }
}
