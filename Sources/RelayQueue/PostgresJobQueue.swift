import AsyncAlgorithms
import Foundation
import Logging
public import PostgresNIO
import RelayModel
import RelayRuntime
import RelayDatabase

/// The job queue on PostgreSQL (one `jobs` table, River-style), and the only code that
/// writes `jobs` rows. Claiming uses `FOR UPDATE SKIP LOCKED`, so any number of workers in
/// any number of processes share it without running a job twice at once; every change after
/// a claim is guarded by the lease holder and the run's attempt number, so a worker that
/// lost its lease cannot finish someone else's run. Every statement that makes work
/// claimable notifies `channel` itself, in the same statement.
public struct PostgresJobQueue: Sendable {
    /// The one NOTIFY channel that wakes workers.
    public static let channel = "relay_jobs"

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    // MARK: Enqueue

    /// Enqueues jobs in one statement; returns the new IDs (a job skipped for its unique key has none).
    @discardableResult
    public func enqueue(_ jobs: [NewJob]) async throws -> [Int64] {
        guard !jobs.isEmpty else { return [] }
        return try await client.withConnection { try await Self.enqueue(jobs, on: $0, logger: logger) }
    }

    /// Enqueues inside the caller's transaction, so a job exists exactly when the data it is about does.
    @discardableResult
    public static func enqueue(_ jobs: [NewJob], on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        guard !jobs.isEmpty else { return [] }
        let rows = try await connection.query("""
            WITH inserted AS (
                INSERT INTO jobs (kind, args, unique_key, scheduled_at, max_attempts, trace_parent)
                SELECT kind, args::jsonb, nullif(unique_key, ''), now() + delay_ms * interval '1 millisecond', max_attempts,
                       \(TraceParent.current())::text
                FROM unnest(\(jobs.map(\.kind))::text[], \(jobs.map(\.args))::text[], \(jobs.map { $0.uniqueKey ?? "" })::text[],
                            \(jobs.map(\.runAfter.milliseconds))::bigint[], \(jobs.map(\.maxAttempts))::int[])
                     WITH ORDINALITY AS input (kind, args, unique_key, delay_ms, max_attempts, position)
                ORDER BY position
                ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN (\(unescaped: JobState.finishedSQL)) DO NOTHING
                RETURNING id),
            woken AS (SELECT pg_notify(\(channel), '') FROM (SELECT 1 FROM inserted LIMIT 1) AS any_row)
            SELECT id FROM inserted, (SELECT count(*) FROM woken) AS notified ORDER BY id
            """, logger: logger)
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        return ids
    }

    // MARK: Claim and hold

    /// Pushes the leases of running jobs forward in one statement; returns the IDs this
    /// worker still holds (a job missing from the answer was rescued or finished elsewhere).
    public func heartbeat(ids: [Int64], worker: String, lease: Duration) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let rows = try await client.query("""
            UPDATE jobs SET lease_expires_at = now() + \(lease.milliseconds) * interval '1 millisecond'
            WHERE id = ANY(\(ids)::bigint[]) AND leased_by = \(worker) AND state = \(JobState.running)
            RETURNING id
            """, logger: logger)
        var held = Set<Int64>()
        for try await id in rows.decode(Int64.self) { held.insert(id) }
        return held
    }

    /// Wakes the workers in a statement (and so a transaction) of its own, after a statement
    /// with a `JobInsert` has committed. Its transaction writes no data, so its commit does not
    /// wait for a WAL flush and it holds the notify lock only briefly. On the connection that
    /// just ran the insert, it also proves that insert durable: postgres-nio sends it only after
    /// that statement's ReadyForQuery, which comes once its commit is flushed.
    /// Prepared, as it runs after every stored batch of webhooks: unprepared, it was parsed and
    /// planned each time (3,400 plans in a notify benchmark run).
    public static func wakeWorkers(on connection: PostgresConnection, logger: Logger) async throws {
        _ = try await PreparedStatementRunner.rows(WakeStatement(), on: connection, logger: logger)
    }

    /// `wakeWorkers`' statement.
    struct WakeStatement: PostgresPreparedStatement {
        typealias Row = Int32
        static let name = "jobs_wake"
        static let sql = "SELECT 1 FROM pg_notify('\(PostgresJobQueue.channel)', '')"

        func makeBindings() -> PostgresBindings {
            PostgresBindings()
        }

        func decodeRow(_ row: PostgresRow) throws -> Int32 {
            try row.decode(Int32.self)
        }
    }

    /// Calls `wake` for every notification on `channel` until the task is cancelled,
    /// listening again at most once a second after any failure (a lost notification only
    /// delays: workers also poll).
    public func listen(_ wake: @escaping @Sendable () -> Void) async {
        await listenOnce(wake)
        for await _ in AsyncTimerSequence(interval: .seconds(1), clock: .continuous) {
            await listenOnce(wake)
        }
    }

    private func listenOnce(_ wake: @escaping @Sendable () -> Void) async {
        do {
            try await client.withConnection { connection in
                try await connection.listen(on: Self.channel) { notifications in
                    for try await _ in notifications { wake() }
                }
            }
        } catch {
            guard !Task.isCancelled else { return }
            logger.debug("LISTEN connection ended; listening again", metadata: ["error": "\(PostgresErrorText.describe(error))"])
        }
    }
}
