import PostgresNIO

/// A write that belongs with a job's outcome (River's `JobCompleteTx`): it becomes a CTE of
/// the very statement that finishes the jobs, batched with the others of its type, so what a
/// job did and the job's new state commit together or not at all, in one round trip.
public protocol JobRecordWrite: Sendable {
    /// Appends `, name AS (...)`: a data-modifying CTE that writes this batch, with a
    /// `RETURNING` clause (the finishing statement reads it so that it runs before the jobs
    /// are updated; what it returns does not matter). Earlier CTEs it adds must start with
    /// `name`.
    static func appendWrite(_ batch: [Self], named name: String, to sql: inout PostgresQuery.StringInterpolation)
}

extension JobRecordWrite {
    /// Appends the CTE for every value of `batch` that has this type (opened from an existential).
    static func appendMatching(_ batch: [any JobRecordWrite], named name: String, to sql: inout PostgresQuery.StringInterpolation) {
        let mine = batch.compactMap { $0 as? Self }
        if !mine.isEmpty { appendWrite(mine, named: name, to: &sql) }
    }
}
