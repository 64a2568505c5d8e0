import Logging
import PostgresNIO

extension PostgresJobQueue {
    /// When the workers learn of jobs that `appendEnqueue` writes.
    public enum Wake: Sendable {
        /// The statement notifies `channel` itself, inside its transaction.
        case inStatement
        /// The caller runs `wakeWorkers(on:logger:)` once its transaction has committed. For
        /// a hot path whose transactions commit concurrently: PostgreSQL holds one lock for
        /// the whole cluster from a transaction's NOTIFY until its commit is flushed, so
        /// transactions that notify commit one at a time, each waiting out the others' fsync.
        case afterCommit
    }

    /// Appends to a `WITH` statement being built the CTE `name` that enqueues one job of `kind`
    /// per row of the caller's CTE `source` (columns `args jsonb`, `unique_key text`), for a
    /// caller whose one statement must write its rows and their jobs together (the receiver's
    /// batch commit: one round trip instead of a transaction of several). The queue stays
    /// the only code that writes `jobs` rows.
    public static func appendEnqueue(to sql: inout PostgresQuery.StringInterpolation, name: String, kind: String,
                                     maxAttempts: Int, from source: String, wake: Wake = .inStatement) {
        sql.appendLiteral(",\n\(name) AS (INSERT INTO jobs (kind, args, unique_key, max_attempts) SELECT ")
        sql.appendInterpolation(kind)
        sql.appendLiteral(", args, unique_key, ")
        sql.appendInterpolation(max(1, maxAttempts))
        sql.appendLiteral(" FROM \(source) ")
        sql.appendLiteral("ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN ('completed', 'dead') DO NOTHING ")
        switch wake {
        case .inStatement:
            // A data-modifying CTE always runs to completion, RETURNING included: each new job
            // notifies (PostgreSQL folds equal notifications of one transaction into one).
            sql.appendLiteral("RETURNING id, pg_notify(")
            sql.appendInterpolation(channel)
            sql.appendLiteral(", ''))\n")
        case .afterCommit:
            sql.appendLiteral("RETURNING id)\n")
        }
    }

    /// Wakes the workers in a statement (and so a transaction) of its own, for `.afterCommit`
    /// enqueues. Its transaction writes no data, so its commit does not wait for a WAL flush
    /// and it holds the notify lock only briefly. On the connection that just ran an enqueue,
    /// it also proves that enqueue durable: postgres-nio sends it only after that statement's
    /// ReadyForQuery, which comes once its commit is flushed.
    public static func wakeWorkers(on connection: PostgresConnection, logger: Logger) async throws {
        _ = try await connection.query("SELECT pg_notify(\(channel), '')", logger: logger).collect()
    }
}
