public import Foundation
public import Logging
public import PostgresNIO
public import RelayCore

/// A bulk redrive: the deliveries a `DeliveryFilter` names, counted first (a dry run) or each
/// retried as `retry(id:)` retries one (its own short transaction: one being attempted at that
/// moment, delivered meanwhile or without its payload is skipped), then recorded in
/// `bulk_actions`. At most `BulkRetryTooMany.limit` at a time: more is refused, so that one call never holds a
/// request for minutes; narrow the filter.
public struct PostgresBulkRetry: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The IDs the filter names now, oldest first (a retry redrives in the order they were made).
    func matching(_ filter: DeliveryFilter, limit: Int) async throws -> [Int64] {
        let rows = try await client.query("""
            SELECT d.id FROM deliveries d
            WHERE d.state = \(filter.state)
              AND (\(filter.rule)::text IS NULL OR d.rule = \(filter.rule))
              AND (\(filter.target)::text IS NULL OR d.target = \(filter.target))
              AND (\(filter.item)::text IS NULL OR d.entrupy_id = \(filter.item))
              AND (\(filter.channel?.rawValue)::text IS NULL OR d.channel = \(filter.channel?.rawValue))
              AND (\(filter.since)::timestamptz IS NULL OR d.created_at >= \(filter.since))
              AND (\(filter.until)::timestamptz IS NULL OR d.created_at < \(filter.until))
              AND d.payload_removed IS NULL
            ORDER BY d.id
            LIMIT \(limit)
            """, logger: logger)
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        return ids
    }

    /// Counts (`dryRun`) or retries what the filter names; `requestedBy` is recorded.
    public func run(_ filter: DeliveryFilter, requestedBy: String, dryRun: Bool) async throws -> BulkRetryReport {
        let ids = try await matching(filter, limit: BulkRetryTooMany.limit + 1)
        if ids.count > BulkRetryTooMany.limit { throw BulkRetryTooMany(matched: ids.count) }
        if dryRun { return BulkRetryReport(id: nil, dryRun: true, matched: ids.count, queued: 0, skipped: 0) }
        let deliveries = PostgresDeliveryRepository(client: client, logger: logger)
        var queued = 0
        for id in ids {
            if try await deliveries.retry(id: id) == .queued { queued += 1 }
        }
        let filters = JSONValue.object(filter.recorded.mapValues(JSONValue.string)).jsonText
        let rows = try await client.query("""
            INSERT INTO bulk_actions (action, requested_by, filters, matched, queued)
            VALUES ('retry_deliveries', \(requestedBy), \(filters)::jsonb, \(ids.count), \(queued))
            RETURNING id
            """, logger: logger)
        var recorded: Int64?
        for try await id in rows.decode(Int64.self) { recorded = id }
        logger.notice("bulk retry", metadata: ["bulk_action_id": "\(recorded ?? 0)", "matched": "\(ids.count)", "queued": "\(queued)",
                                               "by": "\(requestedBy)"])
        return BulkRetryReport(id: recorded, dryRun: false, matched: ids.count, queued: queued, skipped: ids.count - queued)
    }
}
