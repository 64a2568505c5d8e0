import Foundation
import PostgresNIO
import RelayCore

/// What support staff do with jobs: list them and retry one.
extension PostgresJobQueue {
    public enum RetryOutcome: Sendable, Equatable {
        case scheduled
        case notFound
        case notRetryable(state: String)
        case duplicatePending
    }

    public func list(state: JobState?, limit: Int) async throws -> [JobRecord] {
        let rows = try await client.query("""
            SELECT id, kind, args::text, state, attempt, max_attempts, scheduled_at, created_at, finished_at,
                   leased_by, unique_key, errors -> -1 ->> 'error', jsonb_array_length(errors)
            FROM jobs WHERE \(state?.rawValue)::text IS NULL OR state = \(state?.rawValue)
            ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        var records: [JobRecord] = []
        for try await row in rows.decode((Int64, String, String, String, Int, Int, Date, Date, Date?, String?, String?, String?, Int).self) {
            records.append(JobRecord(
                id: row.0, kind: row.1, args: JSONValue(jsonText: row.2) ?? .null, state: row.3, attempt: row.4,
                maxAttempts: row.5, scheduledAt: row.6, createdAt: row.7, finishedAt: row.8, leasedBy: row.9,
                uniqueKey: row.10, lastError: row.11, errorCount: row.12
            ))
        }
        return records
    }

    /// Makes a dead or waiting job run now, granting it one more attempt if it had none left.
    public func retry(id: Int64) async throws -> RetryOutcome {
        do {
            let rows = try await client.query("""
                WITH target AS (SELECT id, state FROM jobs WHERE id = \(id) FOR UPDATE),
                updated AS (
                    UPDATE jobs SET state = 'available', scheduled_at = now(), finished_at = NULL,
                           lease_expires_at = NULL, max_attempts = greatest(max_attempts, attempt + 1)
                    WHERE id = \(id) AND state IN ('dead', 'retryable', 'available')
                    RETURNING id)
                SELECT target.state, (SELECT count(*) FROM updated)::int FROM target
                """, logger: logger)
            for try await (state, updated) in rows.decode((String, Int).self) {
                if updated == 1 {
                    try await client.query("SELECT pg_notify('relay_jobs', '')", logger: logger)
                    return .scheduled
                }
                return .notRetryable(state: state)
            }
            return .notFound
        } catch where PostgresErrorText.sqlState(error) == "23505" {
            return .duplicatePending
        }
    }
}
