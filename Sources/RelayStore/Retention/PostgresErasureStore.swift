public import Foundation
import Logging
public import PostgresNIO
public import RelayModel

/// Erases a person's data (or one customer item ID's) from every table it lives in, in one
/// transaction, and records that it did (`ErasureRun` has the statements). The item's result,
/// flag and timeline, and each delivery's record (rule, target, state, attempt count), stay:
/// they are facts about goods and about the relay's own work. The keys it named or found are
/// remembered, hashed (`erased_subjects`), so that what is fetched for them later is stored
/// without the people fields. A dry run runs the very same statements and rolls them back, so
/// its counts are what a real run would report at that moment.
public struct PostgresErasureStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    private struct DryRunDone: Error { let report: ErasureReport }

    /// Erases what `selector` names; `requestedBy` (a token's name, `cli`) goes in the record.
    /// An erasure that found nothing stored is recorded as such (`ErasureOutcome.matchedNothing`),
    /// and still remembers the key it was given.
    public func erase(_ selector: ErasureSelector, requestedBy: String, dryRun: Bool) async throws -> ErasureReport {
        do {
            return try await client.withTransaction(logger: logger) { tx in
                // A person with thousands of items is a long statement: longer than the API
                // pool's statement timeout allows its reads.
                try await tx.query("SET LOCAL statement_timeout = '10min'", logger: logger)
                let (counts, subjects) = try await ErasureRun(selector: selector, tx: tx, logger: logger).run()
                if dryRun {
                    throw DryRunDone(report: ErasureReport(counts: counts, dryRun: true, rememberedKeys: subjects.distinctCount))
                }
                return try await Self.record(counts: counts, subjects: subjects, selector: selector, requestedBy: requestedBy, on: tx,
                                             logger: logger)
            }
        } catch let error as PostgresTransactionError {
            if let done = error.closureError as? DryRunDone, error.rollbackError == nil { return done.report }
            throw error
        }
    }

    /// The erasure's record, and the keys it remembers (those not remembered already).
    static func record(counts: [String: Int], subjects: ErasureRun.Subjects, selector: ErasureSelector, requestedBy: String,
                       on tx: PostgresConnection, logger: Logger) async throws -> ErasureReport {
        let outcome = ErasureReport(counts: counts, dryRun: false).outcome
        let rows = try await tx.query("""
            WITH recorded AS (
                INSERT INTO erasures (requested_by, selector, counts, outcome)
                VALUES (\(requestedBy), \(selector.kind), \(Self.countsJSON(counts))::jsonb, \(outcome))
                RETURNING id, requested_at),
            remembered AS (
                INSERT INTO erased_subjects (key, erasure_id)
                SELECT DISTINCT erased_subject_key(s.kind, s.value), recorded.id
                FROM recorded, unnest(\(subjects.kinds)::text[], \(subjects.values)::text[]) AS s (kind, value)
                ON CONFLICT (key) DO NOTHING
                RETURNING 1)
            SELECT id, requested_at, (SELECT count(*) FROM remembered)::int FROM recorded
            """, logger: logger)
        for try await (id, at, remembered) in rows.decode((Int64, Date, Int).self) {
            return ErasureReport(counts: counts, dryRun: false, id: id, at: at, rememberedKeys: remembered)
        }
        throw StoreError.missingResult
    }

    /// The erasures recorded, newest first.
    public func list(limit: Int = 100) async throws -> [ErasureRecord] {
        let rows = try await client.query("""
            SELECT id, requested_at, requested_by, selector, counts::text, outcome FROM erasures ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        var records: [ErasureRecord] = []
        // An outcome the enum does not know fails the decoding (the column's CHECK allows none).
        for try await (id, at, by, selector, counts, outcome) in rows.decode((Int64, Date, String, String, String, ErasureOutcome).self) {
            var parsed: [String: Int] = [:]
            if case .object(let members)? = JSONValue(jsonText: counts) {
                for (key, value) in members { if case .number(let n) = value { parsed[key] = n.int64.map { Int(clamping: $0) } ?? 0 } }
            }
            records.append(ErasureRecord(id: id, requestedAt: at, requestedBy: by, selector: selector, counts: parsed, outcome: outcome))
        }
        return records
    }

    static func countsJSON(_ counts: [String: Int]) -> String {
        JSONValue.object(counts.mapValues { .number(JSONNumber($0)) }).jsonText
    }
}
