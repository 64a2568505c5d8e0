public import Foundation
public import Logging
public import PostgresNIO
public import RelayModel

/// A bulk redrive: the deliveries a `DeliveryFilter` names, counted first (a dry run) or each
/// retried as `retry(id:)` retries one (its own short transaction: one being attempted at that
/// moment, delivered meanwhile or without its payload is skipped), recorded in `bulk_actions`
/// from before the first to after the last. At most `BulkRetryTooMany.limit` at a time: more is refused, so that one call never holds a
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

    /// Counts (`dryRun`) or retries what the filter names. Its `bulk_actions` row (who, the
    /// filters, what matched) is written `running` before any delivery is touched and finished
    /// after (`done`, or `failed` with the error), so re-queued deliveries always have a record,
    /// even when the process dies part way (its row stays `running`, then `interrupted`).
    public func run(_ filter: DeliveryFilter, requestedBy: String, dryRun: Bool) async throws -> BulkRetryReport {
        let ids = try await matching(filter, limit: BulkRetryTooMany.limit + 1)
        if ids.count > BulkRetryTooMany.limit { throw BulkRetryTooMany(matched: ids.count) }
        if dryRun { return BulkRetryReport(id: nil, dryRun: true, matched: ids.count, queued: 0, skipped: 0) }
        _ = try await markInterrupted()
        let recorded = try await begin(filter, requestedBy: requestedBy, matched: ids.count)
        logger.notice("bulk retry starting", metadata: ["bulk_action_id": "\(recorded)", "matched": "\(ids.count)", "by": "\(requestedBy)"])
        let deliveries = PostgresDeliveryStore(client: client, logger: logger)
        var queued = 0
        do {
            for (index, id) in ids.enumerated() {
                if try await deliveries.retry(id: id) == .queued { queued += 1 }
                if (index + 1) % Self.progressEvery == 0 { try await progress(recorded, queued: queued) }
            }
        } catch {
            logger.error("bulk retry failed part way", metadata: ["bulk_action_id": "\(recorded)", "queued": "\(queued)", "error": "\(error)"])
            // Best effort: if even this fails the row stays `running`, and a later run marks it interrupted.
            try? await finish(recorded, state: .failed, queued: queued, error: String(describing: error))
            throw error
        }
        try await finish(recorded, state: .done, queued: queued)
        logger.notice("bulk retry", metadata: ["bulk_action_id": "\(recorded)", "matched": "\(ids.count)", "queued": "\(queued)",
                                               "by": "\(requestedBy)"])
        return BulkRetryReport(id: recorded, dryRun: false, matched: ids.count, queued: queued, skipped: ids.count - queued)
    }
}
