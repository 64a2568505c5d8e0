public import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayDatabase
import RelayQueue

/// Targets' health on PostgreSQL (`delivery_targets`), shared by every replica: what the
/// deliver handler reads before an attempt and records after it, under the row's lock so two
/// replicas never count one failure twice or open one breaker twice. Times are the database's
/// (`now()`), so replicas with skewed clocks agree on when a probe is due.
public struct PostgresTargetHealthStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The target's health (nil: never failed) and the database's time. An endpoint whose host
    /// (its origin's key) an operator disabled answers with the host's row instead: `targets
    /// disable https://partner.example` holds every endpoint on that host, whichever paths
    /// exist now or later, and its deliveries are held under the host's key, which `enable`
    /// drains. A host the breaker disabled holds only its root endpoint.
    public func health(key: String) async throws -> (TargetHealth?, Date) {
        let host = TargetKey.host(ofKey: key), disabled = TargetState.disabled.rawValue
        let rows = try await client.query("""
            SELECT now(), \(unescaped: Self.columns) FROM (SELECT 1) one
            LEFT JOIN LATERAL (
                SELECT t.*, 0 AS rank FROM delivery_targets t
                WHERE t.key = \(host) AND \(host) <> \(key) AND t.state = \(disabled) AND t.disabled_by <> \(TargetHealth.breakerName)
                UNION ALL
                SELECT t.*, 1 FROM delivery_targets t WHERE t.key = \(key)
                ORDER BY rank LIMIT 1) t ON true
            """, logger: logger)
        for try await row in rows {
            var cells = PostgresRowCells(row)
            let now: Date = try cells.next()
            return (try Self.health(from: &cells), now)
        }
        return (nil, Date())
    }

    /// Applies an attempt's outcome: reads the row under its lock (creating it on a first
    /// failure), asks the breaker, writes what it decided. A change is recorded as an
    /// operational transition with the deliveries `alerts` plans for it, in the same
    /// transaction. Returns the health after, and the change.
    public func record(_ outcome: TargetBreaker.Outcome, key: String, probe: Bool, breaker: TargetBreaker,
                       alerts: @Sendable (OperationalEvent) -> [PlannedDelivery]) async throws -> (TargetHealth, TargetChange?) {
        try await client.withTransaction(logger: logger) { tx in
            if case .failure = outcome {
                try await tx.query("INSERT INTO delivery_targets (key) VALUES (\(key)) ON CONFLICT (key) DO NOTHING", logger: logger)
            }
            let found = try await Self.lockedRow("""
                SELECT now(), \(unescaped: Self.columns) FROM delivery_targets t WHERE t.key = \(key) FOR UPDATE
                """, on: tx, logger: logger)
            // A success on a target with no row: nothing was counted, nothing to write.
            guard let (current, now) = found else { return (TargetHealth.healthy(key: key, at: Date()), nil) }
            let (next, change) = breaker.record(outcome, on: current, probe: probe, now: now)
            if next != current { try await Self.write(next, on: tx, logger: logger) }
            if let change {
                let event = OperationalEvent(change, health: next, at: now)
                _ = try await PostgresOperationalEvents.record(event, deliveries: alerts(event), on: tx, logger: logger)
            }
            return (next, change)
        }
    }

    /// Every target with a row, with its held backlog, worst first.
    public func list() async throws -> [TargetSummary] {
        let rows = try await client.query("""
            SELECT \(unescaped: Self.columns),
                   (SELECT count(*) FROM deliveries d WHERE \(unescaped: Self.heldFor("t.key")))::bigint,
                   (SELECT min(d.held_since) FROM deliveries d WHERE \(unescaped: Self.heldFor("t.key")))
            FROM delivery_targets t
            ORDER BY CASE t.state WHEN 'disabled' THEN 0 WHEN 'open' THEN 1 ELSE 2 END, t.state_since, t.key
            """, logger: logger)
        var summaries: [TargetSummary] = []
        for try await row in rows {
            var cells = PostgresRowCells(row)
            guard let health = try Self.health(from: &cells) else { continue }
            let held: Int64 = try cells.next(), oldest: Date? = try cells.next()
            summaries.append(TargetSummary(health: health, held: Int(held), oldestHeldSince: oldest))
        }
        return summaries
    }
}
