import Foundation
import Logging
import PostgresNIO
import RelayCore

/// The job queue on PostgreSQL (one `jobs` table, River-style). Claiming uses
/// `FOR UPDATE SKIP LOCKED`, so any number of workers in any number of processes share it
/// without running a job twice at once; every state change after a claim is guarded by the
/// lease holder's ID, so a worker that lost its lease cannot finish someone else's run.
public struct PostgresJobQueue: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    // MARK: Enqueue

    /// Enqueues jobs; returns the new IDs (a job skipped for its unique key has none).
    @discardableResult
    public func enqueue(_ jobs: [NewJob]) async throws -> [Int64] {
        try await client.withConnection { try await Self.enqueue(jobs, on: $0, logger: logger) }
    }

    /// Enqueues inside the caller's transaction, so a job exists exactly when the data it is about does.
    @discardableResult
    public static func enqueue(_ jobs: [NewJob], on connection: PostgresConnection, logger: Logger) async throws -> [Int64] {
        var ids: [Int64] = []
        for job in jobs {
            let delay = job.runAfter.milliseconds
            let rows = try await connection.query("""
                INSERT INTO jobs (kind, args, unique_key, scheduled_at, max_attempts)
                VALUES (\(job.kind), \(job.args.jsonText)::jsonb, \(job.uniqueKey),
                        now() + \(delay) * interval '1 millisecond', \(job.maxAttempts))
                ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN ('completed', 'dead') DO NOTHING
                RETURNING id
                """, logger: logger)
            for try await id in rows.decode(Int64.self) { ids.append(id) }
        }
        return ids
    }

    // MARK: Claim and finish

    public func claim(worker: String, limit: Int, lease: Duration, kinds: [String]) async throws -> [ClaimedJob] {
        guard limit > 0 else { return [] }
        let rows = try await client.query("""
            UPDATE jobs SET state = 'running', attempt = attempt + 1, leased_by = \(worker),
                   lease_expires_at = now() + \(lease.milliseconds) * interval '1 millisecond'
            WHERE id IN (
                SELECT id FROM jobs
                WHERE state IN ('available', 'retryable') AND scheduled_at <= now() AND kind = ANY(\(kinds))
                ORDER BY scheduled_at, id
                LIMIT \(limit)
                FOR UPDATE SKIP LOCKED)
            RETURNING id, kind, args::text, attempt, max_attempts
            """, logger: logger)
        var jobs: [ClaimedJob] = []
        for try await (id, kind, args, attempt, maxAttempts) in rows.decode((Int64, String, String, Int, Int).self) {
            jobs.append(ClaimedJob(id: id, kind: kind, args: JSONValue(jsonText: args) ?? .null, attempt: attempt, maxAttempts: maxAttempts))
        }
        return jobs
    }

    /// Pushes the lease forward; false when this worker no longer holds the job.
    public func extendLease(id: Int64, worker: String, lease: Duration) async throws -> Bool {
        let rows = try await client.query("""
            UPDATE jobs SET lease_expires_at = now() + \(lease.milliseconds) * interval '1 millisecond'
            WHERE id = \(id) AND leased_by = \(worker) AND state = 'running' RETURNING id
            """, logger: logger)
        return try await rows.decode(Int64.self).first { _ in true } != nil
    }

    @discardableResult
    public func complete(id: Int64, worker: String) async throws -> Bool {
        let rows = try await client.query("""
            UPDATE jobs SET state = 'completed', finished_at = now(), lease_expires_at = NULL
            WHERE id = \(id) AND leased_by = \(worker) AND state = 'running' RETURNING id
            """, logger: logger)
        return try await rows.decode(Int64.self).first { _ in true } != nil
    }

    /// Completes many jobs in one statement (one commit); returns how many this worker still held.
    @discardableResult
    public func complete(ids: [Int64], worker: String) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let rows = try await client.query("""
            WITH done AS (
                UPDATE jobs SET state = 'completed', finished_at = now(), lease_expires_at = NULL
                WHERE id = ANY(\(ids)) AND leased_by = \(worker) AND state = 'running' RETURNING 1)
            SELECT count(*)::int FROM done
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    /// Records a failed attempt: `retryable` after `delay`, or `dead` when attempts are spent
    /// (or `dead` is forced). Returns the new state, nil when the lease was lost.
    @discardableResult
    public func fail(id: Int64, worker: String, error: String, delay: Duration, dead: Bool = false) async throws -> JobState? {
        let rows = try await client.query("""
            UPDATE jobs SET
                state = CASE WHEN attempt >= max_attempts OR \(dead) THEN 'dead' ELSE 'retryable' END,
                finished_at = CASE WHEN attempt >= max_attempts OR \(dead) THEN now() END,
                scheduled_at = now() + \(delay.milliseconds) * interval '1 millisecond',
                lease_expires_at = NULL,
                errors = errors || jsonb_build_array(jsonb_build_object(
                    'at', now(), 'attempt', attempt, 'worker', \(worker), 'error', \(String(error.prefix(2000))),
                    'retry_in_ms', CASE WHEN attempt >= max_attempts OR \(dead) THEN NULL ELSE \(delay.milliseconds) END))
            WHERE id = \(id) AND leased_by = \(worker) AND state = 'running'
            RETURNING state
            """, logger: logger)
        for try await state in rows.decode(String.self) { return JobState(rawValue: state) }
        return nil
    }

    /// Puts a job back for later without spending an attempt (rate limited, not failed).
    @discardableResult
    public func snooze(id: Int64, worker: String, delay: Duration) async throws -> Bool {
        let rows = try await client.query("""
            UPDATE jobs SET state = 'retryable', attempt = greatest(attempt - 1, 0), lease_expires_at = NULL,
                   scheduled_at = now() + \(delay.milliseconds) * interval '1 millisecond'
            WHERE id = \(id) AND leased_by = \(worker) AND state = 'running' RETURNING id
            """, logger: logger)
        return try await rows.decode(Int64.self).first { _ in true } != nil
    }

    // MARK: Maintenance

    /// Jobs whose worker stopped renewing its lease become claimable again at once.
    @discardableResult
    public func rescueExpiredLeases() async throws -> Int {
        let rows = try await client.query("""
            WITH rescued AS (
                UPDATE jobs SET
                    state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'retryable' END,
                    finished_at = CASE WHEN attempt >= max_attempts THEN now() END,
                    scheduled_at = now(), lease_expires_at = NULL,
                    errors = errors || jsonb_build_array(jsonb_build_object('at', now(), 'attempt', attempt,
                        'worker', leased_by, 'error', 'lease expired: the worker stopped renewing it'))
                WHERE state = 'running' AND lease_expires_at < now()
                RETURNING id)
            SELECT count(*)::int FROM rescued
            """, logger: logger)
        var count = 0
        for try await value in rows.decode(Int.self) { count = value }
        if count > 0 { try await client.query("SELECT pg_notify('relay_jobs', '')", logger: logger) }
        return count
    }

    /// Deletes finished jobs older than the retention ages.
    @discardableResult
    public func prune(completedOlderThan completed: Duration, deadOlderThan dead: Duration) async throws -> Int {
        let rows = try await client.query("""
            WITH gone AS (
                DELETE FROM jobs WHERE
                    (state = 'completed' AND finished_at < now() - \(completed.milliseconds) * interval '1 millisecond')
                 OR (state = 'dead' AND finished_at < now() - \(dead.milliseconds) * interval '1 millisecond')
                RETURNING 1)
            SELECT count(*)::int FROM gone
            """, logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }

    public func stats() async throws -> QueueStats {
        let rows = try await client.query("""
            SELECT count(*) FILTER (WHERE state IN ('available', 'retryable') AND scheduled_at <= now())::int,
                   coalesce(extract(epoch FROM now() - min(scheduled_at) FILTER (
                       WHERE state IN ('available', 'retryable') AND scheduled_at <= now())), 0)::float8,
                   count(*) FILTER (WHERE state = 'running')::int,
                   count(*) FILTER (WHERE state = 'dead')::int
            FROM jobs WHERE state IN ('available', 'retryable', 'running', 'dead')
            """, logger: logger)
        for try await (available, oldest, running, dead) in rows.decode((Int, Double, Int, Int).self) {
            return QueueStats(available: available, oldestAvailableSeconds: oldest, running: running, dead: dead)
        }
        return QueueStats(available: 0, oldestAvailableSeconds: 0, running: 0, dead: 0)
    }
}
