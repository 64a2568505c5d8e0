import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayQueue

/// Items and their timelines on PostgreSQL. Items change only through
/// `PostgresReconcileStore.commit` (its `StoreStatement`).
public struct PostgresItemStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Queues a re-fetch of the item (support's "fetch again"); nil when one is already queued.
    public func queueRefetch(entrupyID: String, source: ReconcileSource) async throws -> Int64? {
        try await PostgresJobQueue(client: client, logger: logger).enqueue([try ReconcileItemJob(entrupyID: entrupyID, source: source).job()]).first
    }

    /// Queues a re-fetch of each item (the sweep's); returns how many jobs were created (one
    /// already queued for an item is not doubled).
    public func queueRefetches(entrupyIDs: [String], source: ReconcileSource) async throws -> Int {
        try await PostgresJobQueue(client: client, logger: logger)
            .enqueue(entrupyIDs.map { try ReconcileItemJob(entrupyID: $0, source: source).job() }).count
    }

    /// Items not settled (result not final, or flagged) whose last fetch is older than `age`.
    public func unsettled(olderThan age: Duration, limit: Int) async throws -> [String] {
        let rows = try await client.query("""
            SELECT entrupy_id FROM items
            WHERE (NOT result_final OR flag = 'flagged')
              AND fetched_at < now() - \(age.milliseconds) * interval '1 millisecond'
            ORDER BY fetched_at LIMIT \(limit)
            """, logger: logger)
        var ids: [String] = []
        for try await id in rows.decode(String.self) { ids.append(id) }
        return ids
    }
}
