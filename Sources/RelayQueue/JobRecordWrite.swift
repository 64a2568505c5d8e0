import Logging
import PostgresNIO

/// A write that belongs with a job's outcome: it is stored in the same transaction that
/// finishes the job, batched with the others of its type, so what a job did and the job's
/// new state are committed together or not at all (River's `JobCompleteTx`).
public protocol JobRecordWrite: Sendable {
    /// Writes a batch of these on the connection of the finishing transaction.
    static func write(_ batch: [Self], on connection: PostgresConnection, logger: Logger) async throws
}

extension JobRecordWrite {
    /// Writes every value of `batch` that has this type (opened from an existential).
    static func writeMatching(_ batch: [any JobRecordWrite], on connection: PostgresConnection, logger: Logger) async throws {
        let mine = batch.compactMap { $0 as? Self }
        if !mine.isEmpty { try await write(mine, on: connection, logger: logger) }
    }
}
