public import RelayModel
import RelayRuntime
public import RelayDatabase

/// Enqueues a `Job` for each row of a CTE in the caller's own statement, and so in its
/// transaction (River's `InsertTx`), for the one statement that must write its rows and their
/// jobs together (the receiver's batch, a reconcile's deliveries). A small SQL fragment that
/// carries its own bindings: the caller puts `text` among its CTEs and merges `values` into
/// its own; the names are all `:<name>_…`, so they never meet the caller's. The queue stays the
/// only code that writes `jobs` rows and builds their arguments (`{"<idArgument>": id}`) and
/// unique keys (`<uniqueKeyPrefix><id>`: one live job per row) from `Job`'s description.
///
/// `text` never changes for a given name and source, so the caller can prepare its statement.
/// It defines two CTEs: `<name>` (each new job's `id`, `args`, `leased_by`) and
/// `<name>_leased` (one row: `ids int8[]` and `args text[]` of the jobs inserted leased). Given
/// a worker's run's follow-up lease (`FollowUpJobs`, from the handler's `JobContext`) whose
/// worker has a handler for `Job`, up to its free slots' worth of jobs are inserted claimed by
/// it, in their first attempt; the caller selects `<name>_leased` and, once its statement has
/// committed, hands it to `adopt(ids:args:into:)` with the same lease, and the worker runs
/// them when the handler returns. The others are inserted available; the lease runs from
/// the insert's own time (`clock_timestamp()`), not its transaction's start.
///
/// The fragment does not notify: PostgreSQL holds one lock for the whole cluster from a
/// transaction's NOTIFY until its commit is flushed, so transactions that notify commit one at
/// a time, each waiting out the others' fsync. The caller runs
/// `PostgresJobQueue.wakeWorkers(on:logger:)` once its statement has committed, when it
/// enqueued jobs that are not leased.
public struct JobInsert<Job: RowJobArgs>: Sendable {
    public let name: String
    public let text: String
    let maxAttempts: Int
    /// Whether the jobs carry the trace context current when `values` is read (no column of the source's).
    let currentTrace: Bool

    /// - Parameters:
    ///   - name: the CTE's name; its parameters' names start with it.
    ///   - source: a CTE of the caller's with an `id` column, one job per row.
    ///   - traceParentColumn: the source's column holding each row's `traceparent`; without it
    ///     every job carries the trace context current when `values` is read.
    public init(as name: String, forEachRowOf source: String, traceParentColumn: String? = nil, maxAttempts: Int) {
        self.name = name
        self.maxAttempts = max(1, maxAttempts)
        currentTrace = traceParentColumn == nil
        let leased = ":\(name)_lease_worker::text IS NOT NULL AND row_number() OVER () <= :\(name)_lease_limit::int"
        text = """
            \(name) AS (
                INSERT INTO jobs (kind, args, unique_key, max_attempts, state, attempt, leased_by, lease_expires_at, trace_parent)
                SELECT :\(name)_kind::text, jsonb_build_object(:\(name)_argument::text, id), :\(name)_unique_key_prefix::text || id,
                       :\(name)_max_attempts::int,
                       CASE WHEN \(leased) THEN \(JobState.running.sqlLiteral) ELSE \(JobState.available.sqlLiteral) END,
                       CASE WHEN \(leased) THEN 1 ELSE 0 END,
                       CASE WHEN \(leased) THEN :\(name)_lease_worker::text END,
                       CASE WHEN \(leased) THEN clock_timestamp() + :\(name)_lease_ms::int8 * interval '1 millisecond' END,
                       \(traceParentColumn ?? ":\(name)_trace_parent::text")
                FROM \(source)
                -- A job whose key is held by a live job (any state but completed or dead) is not enqueued again.
                ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN (\(JobState.finishedSQL)) DO NOTHING
                RETURNING id, args, leased_by),
            \(name)_leased AS (
                SELECT coalesce(array_agg(id ORDER BY id), '{}')::int8[] AS ids, coalesce(array_agg(args::text ORDER BY id), '{}')::text[] AS args
                FROM \(name) WHERE leased_by IS NOT NULL)
            """
    }

    /// The fragment's values, for this moment: with a worker's run's follow-up lease or a
    /// worker's hand-off (`JobAdopter`), its lease for `Job`'s kind; with none (`nil`), every
    /// job inserted available.
    public func values(leasingTo adopter: (any JobAdopter)?) -> NamedBindings {
        let lease = adopter?.lease(forRunning: Job.kind)
        var values = NamedBindings()
        values.set(name + "_kind", Job.kind)
        values.set(name + "_argument", Job.idArgument)
        values.set(name + "_unique_key_prefix", Job.uniqueKeyPrefix)
        values.set(name + "_max_attempts", maxAttempts)
        values.set(name + "_lease_worker", lease?.worker)
        values.set(name + "_lease_ms", lease.map { Int64($0.duration.milliseconds) } ?? 0)
        values.set(name + "_lease_limit", Int32(clamping: lease?.limit ?? 0))
        if currentTrace { values.set(name + "_trace_parent", TraceParent.current()) }
        return values
    }

    /// Hands the jobs the statement inserted leased (`<name>_leased`'s `ids` and `args`) to the
    /// worker's run whose lease `values(leasingTo:)` was given, once the statement has
    /// committed; answers how many there were.
    @discardableResult
    public func adopt(ids: [Int64], args: [String], into adopter: (any JobAdopter)?) -> Int {
        let jobs = zip(ids, args).map { id, args in
            ClaimedJob(id: id, kind: Job.kind, args: args, attempt: 1, maxAttempts: maxAttempts, crashes: 0, traceParent: TraceParent.current())
        }
        adopter?.adopt(jobs)
        return jobs.count
    }
}
