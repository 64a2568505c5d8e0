import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayQueue

/// The overdue pass's reads and records on PostgreSQL (migration 39): candidates come from
/// `items_unfinished_submitted` (items with no final result, by submission), less those in
/// `item_overdue` at their threshold.
public struct PostgresOverdueStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Items stored without a final result, awaiting Entrupy, whose category's threshold has
    /// passed since submission (by at most the lookback), not yet checked at it; oldest
    /// submission first. Only items submitted between the longest threshold plus the lookback
    /// and the shortest threshold ago are read (the index's range); each is then held to its own.
    public func overdueCandidates(_ thresholds: OverdueThresholds, limit: Int) async throws -> [OverdueCandidate] {
        let categories = thresholds.byCategory.keys.sorted()
        let seconds = categories.map { thresholds.byCategory[$0]!.seconds }
        let keys = categories.map { thresholds.byCategory[$0]!.key }
        let lookback = OverdueThresholds.lookbackSeconds
        let rows = try await client.query("""
            SELECT i.entrupy_id, coalesce(t.key, \(thresholds.fallback.key)::text)
            FROM items i
            LEFT JOIN unnest(\(categories)::text[], \(seconds)::bigint[], \(keys)::text[]) AS t (category, seconds, key)
                ON t.category = lower(i.category)
            WHERE NOT i.result_final AND i.submitted_at IS NOT NULL
              AND i.submitted_at < now() - \(thresholds.shortest.seconds)::bigint * interval '1 second'
              AND i.submitted_at >= now() - (\(thresholds.longest.seconds)::bigint + \(lookback)::bigint) * interval '1 second'
              AND i.submitted_at < now() - coalesce(t.seconds, \(thresholds.fallback.seconds)::bigint) * interval '1 second'
              AND i.submitted_at >= now() - (coalesce(t.seconds, \(thresholds.fallback.seconds)::bigint) + \(lookback)::bigint) * interval '1 second'
              AND coalesce(i.result, '') <> ALL(\(OverdueThresholds.notAwaitingEntrupy)::text[])
              AND NOT EXISTS (SELECT FROM item_overdue o
                              WHERE o.entrupy_id = i.entrupy_id AND o.threshold = coalesce(t.key, \(thresholds.fallback.key)::text))
            ORDER BY i.submitted_at
            LIMIT \(limit)
            """, logger: logger)
        var candidates: [OverdueCandidate] = []
        for try await (id, threshold) in rows.decode((String, String).self) {
            candidates.append(OverdueCandidate(entrupyID: id, threshold: threshold))
        }
        return candidates
    }

    /// Queues a `check_overdue` job for each; one unfinished per item and threshold.
    public func queueOverdueChecks(_ candidates: [OverdueCandidate]) async throws -> Int {
        let jobs = try candidates.map { candidate in
            let job = CheckOverdueJob(candidate)
            return try NewJob(job, uniqueKey: job.uniqueKey, maxAttempts: CheckOverdueJob.maxAttempts)
        }
        return try await PostgresJobQueue(client: client, logger: logger).enqueue(jobs).count
    }

    /// Whether the item's timeline already holds `result.overdue` at `threshold`.
    public func overdueRecorded(entrupyID: String, threshold: String) async throws -> Bool {
        let rows = try await client.query("""
            SELECT EXISTS (SELECT FROM item_events
                           WHERE entrupy_id = \(entrupyID) AND kind = 'result.overdue' AND to_value = \(threshold))
            """, logger: logger)
        for try await found in rows.decode(Bool.self) { return found }
        return false
    }

    /// Notes the item as checked at `threshold` for good: found overdue, or beyond asking (Entrupy
    /// does not know it, or every attempt failed). Again is nothing; a deleted item is nothing.
    public func markOverdue(entrupyID: String, threshold: String) async throws {
        try await client.query("""
            INSERT INTO item_overdue (entrupy_id, threshold)
            SELECT entrupy_id, \(threshold) FROM items WHERE entrupy_id = \(entrupyID)
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }
}
