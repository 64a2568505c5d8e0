import Logging
public import PostgresNIO
import RelayModel
import RelayDatabase

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
    /// Writes of several types (no handler today) take one statement per type, in one
    /// transaction, the last of which also updates the jobs.
    @discardableResult
    public static func finish(_ runs: [JobFinish], records: [any JobRecordWrite] = [], worker: String,
                              on connection: PostgresConnection, logger: Logger) async throws -> [Int64: JobState] {
        guard !runs.isEmpty else { return [:] }
        // One record of each type, in one order for every batch (by name), so that two batches
        // lock their rows alike; the last statement also updates the jobs.
        var byType: [ObjectIdentifier: any JobRecordWrite] = [:]
        for record in records where byType[ObjectIdentifier(type(of: record))] == nil {
            byType[ObjectIdentifier(type(of: record))] = record
        }
        let types = byType.values.sorted { type(of: $0).recordName < type(of: $1).recordName }
        guard let last = types.last else {
            if runs.allSatisfy({ $0.outcome == .completed }) {
                return try await completed(runs, worker: worker, on: connection, logger: logger)
            }
            return try await finish(runs, like: NoJobRecord(), records: [], worker: worker, on: connection, logger: logger)
        }
        guard types.count > 1 else {
            return try await finish(runs, like: last, records: records, worker: worker, on: connection, logger: logger)
        }
        return try await connection.withTransaction(logger: logger) { tx in
            for other in types.dropLast() {
                _ = try await finish([], like: other, records: records, worker: worker, on: tx, logger: logger)
            }
            return try await finish(runs, like: last, records: records, worker: worker, on: tx, logger: logger)
        }
    }

    /// The statement for `runs` with the writes in `records` of `Record`'s type (`like`
    /// opens it from an existential); runs may be empty, to write records alone.
    private static func finish<Record: JobRecordWrite>(_ runs: [JobFinish], like _: Record, records: [any JobRecordWrite],
                                                       worker: String, on connection: PostgresConnection,
                                                       logger: Logger) async throws -> [Int64: JobState] {
        let statement = FinishStatement(runs: runs, records: records.compactMap { $0 as? Record }, worker: worker)
        return states(try await PreparedStatementRunner.rows(statement, on: connection, logger: logger))
    }

    /// The common case, a batch of runs that all completed and wrote nothing else.
    private static func completed(_ runs: [JobFinish], worker: String, on connection: PostgresConnection,
                                  logger: Logger) async throws -> [Int64: JobState] {
        let completed = try await PreparedStatementRunner.rows(CompleteStatement(runs: runs, worker: worker), on: connection, logger: logger)
        return states(completed.map { ($0, .completed) })
    }

    /// The finishing statements' rows (a run's ID and its new state) by ID.
    private static func states(_ rows: [(Int64, JobState)]) -> [Int64: JobState] {
        Dictionary(rows, uniquingKeysWith: { _, last in last })
    }

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
