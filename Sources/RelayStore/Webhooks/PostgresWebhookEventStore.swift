import Foundation
import Logging
public import PostgresNIO
import RelayDatabase
public import RelayModel
public import RelayQueue

/// `WebhookEventStore` on PostgreSQL, and the one owner of a stored event's lifecycle
/// (`WebhookEventState`). A whole batch is one statement (and so one transaction and one
/// commit): new events, their jobs (through the queue's `JobInsert`), and duplicate
/// counts together.
public struct PostgresWebhookEventStore: Sendable {

    let client: PostgresClient
    let logger: Logger
    let reconcileMaxAttempts: Int
    /// The worker of this process, to which `store` hands the reconcile jobs it inserts (`JobHandoff`); nil: none runs here.
    let handoff: (any JobAdopter)?

    public init(client: PostgresClient, logger: Logger, reconcileMaxAttempts: Int = 25, handoff: (any JobAdopter)? = nil) {
        self.client = client
        self.logger = logger
        self.reconcileMaxAttempts = reconcileMaxAttempts
        self.handoff = handoff
    }

    public func list(limit: Int) async throws -> [WebhookEventRecord] {
        try await list(EventListQuery(limit: limit))
    }

    /// Newest first (by ID, which follows reception), filtered as `GET /v1/events` asks.
    public func list(_ query: EventListQuery) async throws -> [WebhookEventRecord] {
        let rows = try await client.query(WebhookEventRecord.select("""
            WHERE (cardinality(\(query.states.map(\.rawValue))::text[]) = 0 OR state = ANY(\(query.states.map(\.rawValue))::text[]))
              AND (cardinality(\(query.eventTypes)::text[]) = 0 OR event_type = ANY(\(query.eventTypes)::text[]))
              AND (cardinality(\(query.entrupyIDs)::text[]) = 0 OR entrupy_id = ANY(\(query.entrupyIDs)::text[]))
              AND (cardinality(\(query.customerItemIDs)::text[]) = 0 OR customer_item_id = ANY(\(query.customerItemIDs)::text[]))
              AND (\(query.since)::timestamptz IS NULL OR received_at >= \(query.since))
              AND (\(query.until)::timestamptz IS NULL OR received_at < \(query.until))
              AND (\(query.before)::bigint IS NULL OR id < \(query.before))
            ORDER BY id DESC LIMIT \(query.limit)
            """), logger: logger)
        return try await WebhookEventRecord.records(from: rows)
    }
}
