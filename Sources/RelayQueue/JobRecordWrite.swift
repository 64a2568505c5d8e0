import PostgresNIO

/// A write that belongs with a job's outcome (River's `JobCompleteTx`): it becomes a CTE of
/// the very statement that finishes the jobs, batched with the others of its type, so what a
/// job did and the job's new state commit together or not at all, in one round trip. The
/// statement's text depends only on the type, so each connection prepares it once.
public protocol JobRecordWrite: Sendable {
    /// Names the finishing statement that carries this type's writes: unique among the
    /// types, short, letters, digits and `_` (a type name, `String(describing:)`, was a
    /// runtime lookup on every batch).
    static var recordName: String { get }

    /// The text of `, name AS (...)`: a data-modifying CTE that writes a batch, with a
    /// `RETURNING` clause (the finishing statement reads it so that it runs before the jobs
    /// are updated; what it returns does not matter). Earlier CTEs it adds must start with
    /// `name`. The batch's values are the statement's parameters from `$firstParameter` on,
    /// in the order `appendBindings` appends them.
    static func writeText(named name: String, firstParameter: Int) -> String

    /// Appends the batch's values for `writeText`'s parameters.
    static func appendBindings(_ batch: [Self], to bindings: inout PostgresBindings)
}

/// The records of a finishing batch that carries none: no CTE, no parameter.
struct NoJobRecord: JobRecordWrite {
    static let recordName = "none"
    static func writeText(named name: String, firstParameter: Int) -> String { "" }
    static func appendBindings(_ batch: [NoJobRecord], to bindings: inout PostgresBindings) {}
}
