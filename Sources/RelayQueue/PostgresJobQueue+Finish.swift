import Logging
import PostgresNIO
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
}
