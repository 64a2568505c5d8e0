import Logging
import PostgresNIO
import RelayCore
import RelayDatabase

extension PostgresJobQueue {
    /// The text of a CTE `name` that enqueues a `Job` for each row of the caller's CTE `source`
    /// (its `id` column), for a caller whose one statement must write its rows and their jobs
    /// together (the receiver's batch, a reconcile's deliveries). The queue builds each job's
    /// arguments and unique key from `Job`'s description (`RowJobArgs`); the kind, maximum
    /// attempts and lease are named parameters starting with `name` (`:enqueued_kind`), whose
    /// values `setEnqueueValues` sets, so the text never changes and the caller can prepare it.
    /// The queue stays the only code that writes `jobs` rows. The CTE returns each new job's
    /// `id`, `args` and `leased_by`.
    ///
    /// With `leased`, up to `:<name>_lease_limit` jobs are inserted already claimed by the
    /// worker `:<name>_lease_worker` (see `JobLease`), in their first attempt, when that is not
    /// NULL; read them back with `leasedJobs`. The others are available. The lease runs from
    /// the insert's own time (`clock_timestamp()`), not its transaction's start.
    ///
    /// The CTE does not notify: PostgreSQL holds one lock for the whole cluster from a
    /// transaction's NOTIFY until its commit is flushed, so transactions that notify commit
    /// one at a time, each waiting out the others' fsync. The caller runs
    /// `wakeWorkers(on:logger:)` once its transaction has committed, when it enqueued jobs
    /// that are not leased.
    public static func enqueueText(name: String, from source: String, leased: Bool = false) -> String {
        let claim: (columns: String, values: String)
        if leased {
            let leased = ":\(name)_lease_worker::text IS NOT NULL AND row_number() OVER () <= :\(name)_lease_limit::int"
            claim = (", state, attempt, leased_by, lease_expires_at",
                     ", CASE WHEN \(leased) THEN \(JobState.running.sqlLiteral) ELSE \(JobState.available.sqlLiteral) END"
                        + ", CASE WHEN \(leased) THEN 1 ELSE 0 END, CASE WHEN \(leased) THEN :\(name)_lease_worker::text END"
                        + ", CASE WHEN \(leased) THEN clock_timestamp() + :\(name)_lease_ms::int8 * interval '1 millisecond' END")
        } else {
            claim = ("", "")
        }
        return ",\n\(name) AS (INSERT INTO jobs (kind, args, unique_key, max_attempts\(claim.columns)) "
            + "SELECT :\(name)_kind::text, jsonb_build_object(:\(name)_argument::text, id), :\(name)_unique_key_prefix::text || id, "
            + "greatest(1, :\(name)_max_attempts::int)\(claim.values) FROM \(source) "
            // A job whose key is held by a live job (any state but completed or dead) is not enqueued again.
            + "ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN (\(JobState.finishedSQL)) DO NOTHING "
            + "RETURNING id, args, leased_by)\n"
    }

    /// The values of `enqueueText(name:…)`'s parameters: `Job`'s description, its maximum
    /// attempts, and the lease (for a text made with `leased`).
    public static func setEnqueueValues<Job: RowJobArgs>(_ job: Job.Type, named name: String, maxAttempts: Int, lease: JobLease? = nil,
                                                          leased: Bool = false, in values: inout NamedBindings) {
        values.set(name + "_kind", Job.kind)
        values.set(name + "_argument", Job.idArgument)
        values.set(name + "_unique_key_prefix", Job.uniqueKeyPrefix)
        values.set(name + "_max_attempts", maxAttempts)
        guard leased else { return }
        values.set(name + "_lease_worker", lease?.worker)
        values.set(name + "_lease_ms", lease.map { Int64($0.duration.milliseconds) } ?? 0)
        values.set(name + "_lease_limit", Int32(clamping: lease?.limit ?? 0))
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
