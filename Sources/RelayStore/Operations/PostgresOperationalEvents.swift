import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayQueue

/// Operational transitions on PostgreSQL: the event's row, the deliveries the rules planned for
/// it and their jobs, in one transaction, so an alert exists exactly when its cause does.
public struct PostgresOperationalEvents: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Records the event and its deliveries; returns the deliveries' IDs.
    @discardableResult
    public func record(_ event: OperationalEvent, deliveries: [PlannedDelivery]) async throws -> [Int64] {
        try await client.withTransaction(logger: logger) { tx in
            try await Self.record(event, deliveries: deliveries, on: tx, logger: logger)
        }
    }

    /// The same inside the caller's transaction (a target's change is recorded with its alert).
    static func record(_ event: OperationalEvent, deliveries planned: [PlannedDelivery], on connection: PostgresConnection,
                       logger: Logger) async throws -> [Int64] {
        let rows = try await connection.query("""
            WITH event AS (
                INSERT INTO operational_events (kind, occurred_at, target, delivery_id, data)
                VALUES (\(event.kind.rawValue), \(event.occurredAt), \(event.target), \(event.delivery?.id), \(event.data.jsonText)::jsonb)
                RETURNING id)
            INSERT INTO deliveries (operational_event_id, rule, action_index, channel, target, payload, signing_key_id)
            SELECT event.id, i.rule, i.action_index, i.channel, i.target, i.payload::jsonb, nullif(i.signing_key_id, '')
            FROM event, unnest(\(planned.map(\.rule))::text[], \(planned.map(\.actionIndex))::int[], \(planned.map(\.channel.rawValue))::text[],
                               \(planned.map(\.target))::text[], \(planned.map(\.payload.json.jsonText))::text[],
                               \(planned.map { $0.signingKeyID ?? "" })::text[])
                 AS i (rule, action_index, channel, target, payload, signing_key_id)
            RETURNING id
            """, logger: logger)
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        if !ids.isEmpty {
            _ = try await PostgresJobQueue.enqueue(try ids.map { try DeliverJob(deliveryID: $0).job() }, on: connection, logger: logger)
        }
        return ids
    }
}
