public import Foundation
import Logging
public import PostgresNIO
public import RelayCore

/// Erases a person's data (or one customer item ID's) from every table it lives in, in one
/// transaction, and records that it did. The item's result, flag and timeline, and each
/// delivery's record (rule, target, state, attempt count), stay: they are facts about goods
/// and about the relay's own work. A dry run runs the very same statements and rolls them
/// back, so its counts are what a real run would report at that moment.
public struct PostgresErasureStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    private struct DryRunDone: Error { let report: ErasureReport }

    /// Erases what `selector` names; `requestedBy` (a token's name, `cli`) goes in the record.
    public func erase(_ selector: ErasureSelector, requestedBy: String, dryRun: Bool) async throws -> ErasureReport {
        do {
            return try await client.withTransaction(logger: logger) { tx in
                // A person with thousands of items is a long statement: longer than the API
                // pool's statement timeout allows its reads.
                try await tx.query("SET LOCAL statement_timeout = '10min'", logger: logger)
                let counts = try await Self.run(selector, on: tx, logger: logger)
                if dryRun { throw DryRunDone(report: ErasureReport(counts: counts, dryRun: true)) }
                let rows = try await tx.query("""
                    INSERT INTO erasures (requested_by, selector, counts)
                    VALUES (\(requestedBy), \(selector.kind), \(Self.countsJSON(counts))::jsonb)
                    RETURNING id, requested_at
                    """, logger: logger)
                for try await (id, at) in rows.decode((Int64, Date).self) {
                    return ErasureReport(counts: counts, dryRun: false, id: id, at: at)
                }
                throw StoreError.missingResult
            }
        } catch let error as PostgresTransactionError {
            if let done = error.closureError as? DryRunDone, error.rollbackError == nil { return done.report }
            throw error
        }
    }

    /// The erasures recorded, newest first.
    public func list(limit: Int = 100) async throws -> [ErasureRecord] {
        let rows = try await client.query("""
            SELECT id, requested_at, requested_by, selector, counts::text FROM erasures ORDER BY id DESC LIMIT \(limit)
            """, logger: logger)
        var records: [ErasureRecord] = []
        for try await (id, at, by, selector, counts) in rows.decode((Int64, Date, String, String, String).self) {
            var parsed: [String: Int] = [:]
            if case .object(let members)? = JSONValue(jsonText: counts) {
                for (key, value) in members { if case .number(let n) = value { parsed[key] = n.int64.map { Int(clamping: $0) } ?? 0 } }
            }
            records.append(ErasureRecord(id: id, requestedAt: at, requestedBy: by, selector: selector, counts: parsed))
        }
        return records
    }

    static func countsJSON(_ counts: [String: Int]) -> String {
        JSONValue.object(counts.mapValues { .number(JSONNumber($0)) }).jsonText
    }

    /// Every statement of one erasure, in order; answers the counts of `ErasureReport.kinds`.
    static func run(_ selector: ErasureSelector, on tx: PostgresConnection, logger: Logger) async throws -> [String: Int] {
        func count(_ query: PostgresQuery) async throws -> Int {
            var total = 0
            for try await value in try await tx.query(query, logger: logger).decode(Int.self) { total = value }
            return total
        }
        // Whose: the SDK users the key names (their usernames link them to items), then the items.
        var usernames: [String] = []
        var sdkUsers = 0
        switch selector {
        case .uniqueUserID(let id):
            for try await name in try await tx.query("""
                DELETE FROM sdk_users WHERE unique_user_id = \(id) RETURNING username
                """, logger: logger).decode(String.self) { usernames.append(name); sdkUsers += 1 }
        case .email(let email):
            for try await name in try await tx.query("""
                DELETE FROM sdk_users WHERE lower(email) = lower(\(email)) RETURNING username
                """, logger: logger).decode(String.self) { usernames.append(name); sdkUsers += 1 }
        case .username(let name):
            for try await _ in try await tx.query("""
                DELETE FROM sdk_users WHERE username = \(name) RETURNING username
                """, logger: logger).decode(String.self) { sdkUsers += 1 }
            usernames.append(name)
        case .customerItemID:
            break
        }
        let customerItemID: String? = if case .customerItemID(let value) = selector { value } else { nil }
        var items: [(id: String, raw: String)] = []
        for try await row in try await tx.query("""
            SELECT entrupy_id, raw::text FROM items
            WHERE username = ANY(\(usernames)::text[]) OR customer_item_id = \(customerItemID)
            ORDER BY entrupy_id FOR UPDATE
            """, logger: logger).decode((String, String).self) { items.append((row.0, row.1)) }
        let ids = items.map(\.id)
        var customerItemIDs: [String] = []
        for try await id in try await tx.query("""
            SELECT DISTINCT customer_item_id FROM items WHERE entrupy_id = ANY(\(ids)::text[]) AND customer_item_id IS NOT NULL
            """, logger: logger).decode(String.self) { customerItemIDs.append(id) }
        let erasedRaws = items.map { item in
            (JSONValue(jsonText: item.raw).map(PersonalData.erasing) ?? .object([:])).jsonText
        }
        var counts: [String: Int] = ["sdk_users": sdkUsers]
        counts["items"] = try await count("""
            WITH written AS (
                UPDATE items i SET username = NULL, raw = e.raw::jsonb, erased_at = now()
                FROM unnest(\(ids)::text[], \(erasedRaws)::text[]) AS e (entrupy_id, raw)
                WHERE i.entrupy_id = e.entrupy_id RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["webhook_bodies"] = try await count("""
            WITH written AS (
                UPDATE webhook_events SET body = NULL, headers = '{}', body_removed = 'erased', body_removed_at = now()
                -- Webhooks that named only the customer's item ID (before Entrupy's ID was known) too;
                -- not those of another authentication of the same customer item ID (a resubmission).
                WHERE (entrupy_id = ANY(\(ids)::text[]) OR (entrupy_id IS NULL AND customer_item_id = ANY(\(customerItemIDs)::text[])))
                  AND body IS NOT NULL
                RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["deliveries_cancelled"] = try await count("""
            WITH written AS (
                UPDATE deliveries SET state = 'dead', last_error = 'cancelled: the data it carries was erased',
                       next_attempt_at = NULL, held_since = NULL, updated_at = now()
                WHERE entrupy_id = ANY(\(ids)::text[]) AND state IN ('pending', 'failed')
                  -- One being sent right now is left to finish, so that its record says whether the
                  -- partner got it; its payload goes below, so a retry after it has nothing to send.
                  AND NOT EXISTS (SELECT 1 FROM jobs WHERE unique_key = \(DeliverJob.uniqueKeyPrefix) || deliveries.id AND state = 'running')
                RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["delivery_payloads"] = try await count("""
            WITH written AS (
                UPDATE deliveries SET payload = NULL, payload_removed = 'erased'
                WHERE entrupy_id = ANY(\(ids)::text[]) AND payload IS NOT NULL
                RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["delivery_replies"] = try await count("""
            WITH written AS (
                UPDATE delivery_attempts a SET response_excerpt = NULL, smtp_reply = NULL
                FROM deliveries d
                WHERE d.id = a.delivery_id AND d.entrupy_id = ANY(\(ids)::text[])
                  AND (a.response_excerpt IS NOT NULL OR a.smtp_reply IS NOT NULL)
                RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        counts["reconciliation_notes"] = try await count("""
            WITH written AS (
                UPDATE reconciliations SET note = NULL WHERE entrupy_id = ANY(\(ids)::text[]) AND note IS NOT NULL RETURNING 1)
            SELECT count(*)::int FROM written
            """)
        return counts
    }
}
