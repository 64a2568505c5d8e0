import PostgresNIO

extension PostgresJobQueue {
    /// Appends to a `WITH` statement being built the CTE `name` that enqueues one job of `kind`
    /// per row of the caller's CTE `source` (columns `args jsonb`, `unique_key text`) and
    /// notifies workers, for a caller whose one statement must write its rows and their jobs
    /// together (the receiver's batch commit: one round trip instead of a transaction of
    /// several). The queue stays the only code that writes `jobs` rows.
    public static func appendEnqueue(to sql: inout PostgresQuery.StringInterpolation, name: String, kind: String,
                                     maxAttempts: Int, from source: String) {
        sql.appendLiteral(",\n\(name) AS (INSERT INTO jobs (kind, args, unique_key, max_attempts) SELECT ")
        sql.appendInterpolation(kind)
        sql.appendLiteral(", args, unique_key, ")
        sql.appendInterpolation(max(1, maxAttempts))
        sql.appendLiteral(" FROM \(source) ")
        // A data-modifying CTE always runs to completion, RETURNING included: each new job
        // notifies (PostgreSQL folds equal notifications of one transaction into one).
        sql.appendLiteral("ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state NOT IN ('completed', 'dead') DO NOTHING ")
        sql.appendLiteral("RETURNING id, pg_notify(")
        sql.appendInterpolation(channel)
        sql.appendLiteral(", ''))\n")
    }
}
