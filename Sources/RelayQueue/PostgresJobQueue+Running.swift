public import Logging
public import PostgresNIO
public import RelayModel

extension PostgresJobQueue {
    /// Of the rows `rowIDs` (each the row of a `Job`, by the unique key its job carries), those
    /// whose job a worker is running right now, read inside the caller's transaction. A reader
    /// outside the queue (an erasure that leaves a delivery being sent to finish) asks this
    /// rather than reading `jobs` itself.
    public static func running<Job: RowJobArgs>(_ job: Job.Type, rowIDs: [Int64], on connection: PostgresConnection,
                                                logger: Logger) async throws -> Set<Int64> {
        guard !rowIDs.isEmpty else { return [] }
        let keys = rowIDs.map { Job.uniqueKeyPrefix + String($0) }
        // The unfinished-key condition is the partial unique index's own, so the keys are probes in it.
        let rows = try await connection.query("""
            SELECT unique_key FROM jobs
            WHERE unique_key = ANY(\(keys)::text[]) AND unique_key IS NOT NULL AND state NOT IN (\(unescaped: JobState.finishedSQL))
              AND state = \(JobState.running)
            """, logger: logger)
        var running = Set<Int64>()
        for try await key in rows.decode(String.self) {
            if let id = Int64(key.dropFirst(Job.uniqueKeyPrefix.count)) { running.insert(id) }
        }
        return running
    }
}
