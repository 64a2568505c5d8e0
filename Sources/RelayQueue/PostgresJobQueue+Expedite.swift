import Foundation
import Logging
public import PostgresNIO
import RelayDatabase
import RelayModel
import RelayRuntime

/// What `expedite` did with a job that has a unique key.
public enum ExpediteOutcome: Sendable, Equatable {
    /// A new job, at the head of the queue.
    case queued(jobID: Int64)
    /// One was waiting (queued, or retrying later): it now runs first, at once.
    case movedUp(jobID: Int64)
    /// One is running now: it is the fetch asked for.
    case running(jobID: Int64)
}

extension PostgresJobQueue {
    /// How far back a job asked for by a person is scheduled: ahead of every job waiting its
    /// turn (claims take the oldest schedule first), without waiting for a backlog to drain.
    static let headOfQueue = "interval '1 hour'"

    /// Enqueues `job` (which must have a unique key) at the head of the queue, or, when an
    /// unfinished job holds its key, coalesces with it: a waiting one is moved to the head and
    /// made due now, a running one is left to finish. One statement; it wakes the workers.
    public func expedite(_ job: NewJob) async throws -> ExpediteOutcome {
        precondition(job.uniqueKey?.isEmpty == false, "expedite needs a job with a unique key")
        // The key's job can finish between the insert's conflict and the reads: then a new one is due, so try again.
        for _ in 0..<3 {
            if let outcome = try await expediteOnce(job, key: job.uniqueKey ?? "") { return outcome }
        }
        throw ExpediteContended(key: job.uniqueKey ?? "")
    }

    private func expediteOnce(_ job: NewJob, key: String) async throws -> ExpediteOutcome? {
        let rows = try await client.query("""
            WITH inserted AS (
                INSERT INTO jobs (kind, args, unique_key, scheduled_at, max_attempts, trace_parent)
                VALUES (\(job.kind), \(job.args)::jsonb, \(key), now() - \(unescaped: Self.headOfQueue), \(job.maxAttempts),
                        \(TraceParent.current())::text)
                ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN (\(unescaped: JobState.finishedSQL)) DO NOTHING
                RETURNING id, 'queued'::text AS outcome),
            moved AS (
                UPDATE jobs SET scheduled_at = least(scheduled_at, now() - \(unescaped: Self.headOfQueue))
                WHERE unique_key = \(key) AND state IN (\(unescaped: JobState.claimable.map(\.sqlLiteral).joined(separator: ", ")))
                  AND NOT EXISTS (SELECT 1 FROM inserted)
                RETURNING id, 'moved_up'::text AS outcome),
            running AS (
                SELECT id, 'running'::text AS outcome FROM jobs
                WHERE unique_key = \(key) AND state = \(JobState.running) AND NOT EXISTS (SELECT 1 FROM inserted)),
            answer AS (SELECT * FROM inserted UNION ALL SELECT * FROM moved UNION ALL SELECT * FROM running),
            woken AS (SELECT pg_notify(\(Self.channel), '') FROM (SELECT 1 FROM inserted UNION ALL SELECT 1 FROM moved LIMIT 1) AS any_row)
            SELECT id, outcome FROM answer, (SELECT count(*) FROM woken) AS notified ORDER BY id DESC LIMIT 1
            """, logger: logger)
        for try await (id, outcome) in rows.decode((Int64, String).self) {
            switch outcome {
            case "queued": return .queued(jobID: id)
            case "moved_up": return .movedUp(jobID: id)
            default: return .running(jobID: id)
            }
        }
        return nil
    }
}

/// A job's key kept changing hands while `expedite` tried to queue it.
public struct ExpediteContended: Error, CustomStringConvertible {
    public let key: String
    public var description: String { "the job \(key) kept finishing and starting while it was being queued; try again" }
}
