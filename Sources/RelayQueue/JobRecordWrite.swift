public import RelayDatabase
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
    /// `name`. Its parameters are named and start with `name` too (`:record_ids`), so they
    /// never meet the finishing statement's own.
    static func writeText(named name: String) -> String

    /// Sets the batch's values for `writeText`'s parameters.
    static func setValues(_ batch: [Self], named name: String, in values: inout NamedBindings)
}

/// The records of a finishing batch that carries none: no CTE, no parameter.
struct NoJobRecord: JobRecordWrite {
    static let recordName = "none"
    static func writeText(named name: String) -> String { "" }
    static func setValues(_ batch: [NoJobRecord], named name: String, in values: inout NamedBindings) {}
}
