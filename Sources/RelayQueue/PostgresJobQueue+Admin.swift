import Foundation
import Logging
public import PostgresNIO
import RelayDatabase

/// What support staff do with jobs: list them, run one again, and move a waiting one forward.
extension PostgresJobQueue {
    public enum RetryOutcome: Sendable, Equatable {
        case scheduled
        case notFound
        case notRetryable(state: JobState)
        case duplicatePending
    }

    public func list(state: JobState?, limit: Int) async throws -> [JobRecord] {
        let rows = try await client.query("""
            SELECT id, kind, args::text, state, attempt, max_attempts, crashes, scheduled_at, created_at, finished_at,
                   leased_by, unique_key, errors -> -1 ->> 'error', jsonb_array_length(errors)
            FROM jobs WHERE \(state)::text IS NULL OR state = \(state)
            ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        var records: [JobRecord] = []
        for try await row in rows.decode((Int64, String, String, JobState, Int, Int, Int, Date, Date, Date?, String?, String?, String?, Int).self) {
            records.append(JobRecord(
                id: row.0, kind: row.1, args: row.2, state: row.3, attempt: row.4, maxAttempts: row.5, crashes: row.6,
                scheduledAt: row.7, createdAt: row.8, finishedAt: row.9, leasedBy: row.10, uniqueKey: row.11,
                lastError: row.12, errorCount: row.13))
        }
        return records
    }

    /// Makes a dead or waiting job run now (a redrive), granting it one more attempt if it
    /// had none left and forgiving its crashes.
    public func retry(id: Int64) async throws -> RetryOutcome {
        do {
            let rows = try await client.query("""
                WITH target AS (SELECT id, state FROM jobs WHERE id = \(id) FOR UPDATE),
                updated AS (
                    UPDATE jobs SET state = \(JobState.available), scheduled_at = now(), finished_at = NULL, crashes = 0,
                           lease_expires_at = NULL, max_attempts = greatest(max_attempts, attempt + 1)
                    WHERE id = \(id) AND state = ANY(\([JobState.dead, .retryable, .available].map(\.rawValue))::text[])
                    RETURNING id),
                woken AS (SELECT pg_notify(\(Self.channel), '') FROM updated)
                SELECT target.state, (SELECT count(*) FROM updated)::int, (SELECT count(*) FROM woken)::int FROM target
                """, logger: logger)
            for try await (state, updated, _) in rows.decode((JobState, Int, Int).self) {
                return updated == 1 ? .scheduled : .notRetryable(state: state)
            }
            return .notFound
        } catch where PostgresErrorText.isUniqueViolation(error) {
            return .duplicatePending
        }
    }

    /// The unfinished job with `uniqueKey`, moved to run now when it is waiting, inside the
    /// caller's transaction. Returns its state (`running` means it is under way and was left
    /// alone), or nil when no unfinished job has the key.
    public static func runNow(uniqueKey: String, on connection: PostgresConnection, logger: Logger) async throws -> JobState? {
        let rows = try await connection.query("""
            WITH target AS (
                SELECT id, state FROM jobs WHERE unique_key = \(uniqueKey) AND state <> ALL(\([JobState.completed, .dead].map(\.rawValue))::text[]) FOR UPDATE),
            moved AS (
                UPDATE jobs SET scheduled_at = now() FROM target
                WHERE jobs.id = target.id AND target.state = ANY(\(JobState.claimable.map(\.rawValue))::text[])
                RETURNING jobs.id),
            woken AS (SELECT pg_notify(\(channel), '') FROM moved)
            SELECT target.state, (SELECT count(*) FROM woken)::int FROM target
            """, logger: logger)
        for try await (state, _) in rows.decode((JobState, Int).self) { return state }
        return nil
    }
}

extension PostgresJobQueue {
    /// The waiting jobs with these unique keys, moved to run `spacing` apart from now, in key
    /// order, inside the caller's transaction (a target's held deliveries draining at a bounded
    /// rate). Running jobs are left alone. Returns how many moved.
    /// `ahead`: scheduled an hour back, so they are claimed before a backlog that is due now.
    public static func runSoon(uniqueKeys: [String], spacing: Duration, ahead: Bool = false, on connection: PostgresConnection,
                               logger: Logger) async throws -> Int {
        guard !uniqueKeys.isEmpty else { return 0 }
        let spacingMilliseconds = spacing.milliseconds
        let rows = try await connection.query("""
            WITH keys AS (SELECT key, position FROM unnest(\(uniqueKeys)::text[]) WITH ORDINALITY AS k (key, position)),
            moved AS (
                UPDATE jobs SET scheduled_at = now() - CASE WHEN \(ahead) THEN interval '1 hour' ELSE interval '0' END
                                               + (keys.position - 1) * \(spacingMilliseconds) * interval '1 millisecond'
                FROM keys
                WHERE jobs.unique_key = keys.key AND jobs.state = ANY(\(JobState.claimable.map(\.rawValue))::text[])
                RETURNING jobs.id),
            woken AS (SELECT pg_notify(\(channel), '') WHERE EXISTS (SELECT 1 FROM moved))
            SELECT (SELECT count(*) FROM moved)::int, (SELECT count(*) FROM woken)::int
            """, logger: logger)
        for try await (moved, _) in rows.decode((Int, Int).self) { return moved }
        return 0
    }
}
