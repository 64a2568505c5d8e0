import Logging
import PostgresNIO

extension PostgresJobQueue {
    /// The text of a CTE `name` that enqueues one job per row of the caller's CTE `source`
    /// (columns `args jsonb`, `unique_key text`), for a caller whose one statement must write
    /// its rows and their jobs together (the receiver's batch, a reconcile's deliveries). The
    /// kind and the maximum attempts are the statement's parameters `kindParameter` and
    /// `maxAttemptsParameter` (":job_kind::text", say: a named parameter, see `NamedSQL`), so the text never changes and the caller can
    /// prepare it. The queue stays the only code that writes `jobs` rows. The CTE returns each
    /// new job's `id`, `args` and `leased_by`.
    ///
    /// With `leaseParameters` (a worker's ID as text, a lease in milliseconds as bigint and a
    /// limit as int, ":lease_worker::text", ":lease_milliseconds::int8" and ":lease_limit::int"; see `JobLease`), up to `limit` jobs
    /// are inserted already claimed by that worker, in their first attempt, when the worker
    /// parameter is not NULL; read them back with `leasedJobs`. The others are available. The
    /// lease runs from the insert's own time (`clock_timestamp()`), not its transaction's start.
    ///
    /// The CTE does not notify: PostgreSQL holds one lock for the whole cluster from a
    /// transaction's NOTIFY until its commit is flushed, so transactions that notify commit
    /// one at a time, each waiting out the others' fsync. The caller runs
    /// `wakeWorkers(on:logger:)` once its transaction has committed, when it enqueued jobs
    /// that are not leased.
    public static func enqueueText(name: String, kindParameter: String, maxAttemptsParameter: String, from source: String,
                                   leaseParameters: (worker: String, milliseconds: String, limit: String)? = nil) -> String {
        let claim: (columns: String, values: String)
        if let lease = leaseParameters {
            let leased = "\(lease.worker) IS NOT NULL AND row_number() OVER () <= \(lease.limit)"
            claim = (", state, attempt, leased_by, lease_expires_at",
                     ", CASE WHEN \(leased) THEN \(JobState.running.sqlLiteral) ELSE \(JobState.available.sqlLiteral) END"
                        + ", CASE WHEN \(leased) THEN 1 ELSE 0 END, CASE WHEN \(leased) THEN \(lease.worker) END"
                        + ", CASE WHEN \(leased) THEN clock_timestamp() + \(lease.milliseconds) * interval '1 millisecond' END")
        } else {
            claim = ("", "")
        }
        return ",\n\(name) AS (INSERT INTO jobs (kind, args, unique_key, max_attempts\(claim.columns)) SELECT \(kindParameter), args, unique_key, "
            + "greatest(1, \(maxAttemptsParameter))\(claim.values) FROM \(source) "
            // A job whose key is held by a live job (any state but completed or dead) is not enqueued again.
            + "ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN (\(JobState.finishedSQL)) DO NOTHING "
            + "RETURNING id, args, leased_by)\n"
    }

    /// The jobs an `enqueueText` statement inserted under a lease, from their IDs and
    /// arguments (as text), ready to hand to the worker (`JobResult.then`): in their first
    /// attempt, never crashed.
    public static func leasedJobs(kind: String, maxAttempts: Int, ids: [Int64], args: [String]) -> [ClaimedJob] {
        zip(ids, args).map { id, args in
            ClaimedJob(id: id, kind: kind, args: args, attempt: 1, maxAttempts: max(1, maxAttempts), crashes: 0)
        }
    }

    /// Wakes the workers in a statement (and so a transaction) of its own, after an
    /// `enqueueText` statement has committed. Its transaction writes no data, so its commit
    /// does not wait for a WAL flush and it holds the notify lock only briefly. On the
    /// connection that just ran an enqueue, it also proves that enqueue durable: postgres-nio
    /// sends it only after that statement's ReadyForQuery, which comes once its commit is flushed.
    public static func wakeWorkers(on connection: PostgresConnection, logger: Logger) async throws {
        _ = try await connection.query("SELECT pg_notify(\(channel), '')", logger: logger).collect()
    }
}
