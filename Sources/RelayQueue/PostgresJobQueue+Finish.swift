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

    /// `finish` inside the caller's transaction, so what a job did and its new state commit together.
    @discardableResult
    public static func finish(_ runs: [JobFinish], worker: String, on connection: PostgresConnection,
                              logger: Logger) async throws -> [Int64: JobState] {
        guard !runs.isEmpty else { return [:] }
        let columns = runs.map(\.columns)
        let rows = try await connection.query("""
            WITH input AS (
                SELECT * FROM unnest(\(runs.map(\.id))::bigint[], \(runs.map(\.attempt))::int[], \(columns.map(\.action))::text[],
                                     \(columns.map(\.delayMilliseconds))::bigint[], \(columns.map(\.error))::text[])
                    AS i (id, attempt, action, delay_ms, error)),
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
                WHERE j.id = d.id AND j.attempt = d.attempt AND j.leased_by = \(worker) AND j.state = 'running'
                RETURNING j.id, j.state)
            SELECT id, state FROM updated
            """, logger: logger)
        var states: [Int64: JobState] = [:]
        for try await (id, state) in rows.decode((Int64, JobState).self) { states[id] = state }
        return states
    }
}
