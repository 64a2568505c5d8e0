import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayDatabase

/// How a `TargetHealth` is read from and written to its row.
extension PostgresTargetHealthStore {
    /// That a delivery `d` is in the backlog of the target whose key is `key` (a column of the
    /// statement): held for it and still to be attempted (a held delivery that is settled is no
    /// one's backlog). Served by the partial index `deliveries_held`.
    static func heldFor(_ key: String) -> String {
        "d.held_target = \(key) AND d.held_since IS NOT NULL "
            + "AND d.state IN (\(DeliveryState.pending.sqlLiteral), \(DeliveryState.failed.sqlLiteral))"
    }

    /// `health(from:)` reads these in this order, from `delivery_targets t`.
    static let columns = """
        t.id, t.key, t.state, t.state_since, t.failing_since, t.consecutive_failures, t.window_started_at,
        t.window_attempts, t.window_failures, t.last_error, t.last_failure_at, t.last_success_at, t.probe_wait_ms,
        t.next_probe_at, t.probe_delivery_id, t.probe_until, t.disabled_by
        """

    /// The row a `SELECT now(), columns … FOR UPDATE` locked, with the database's time; nil
    /// when there is none. What an attempt's outcome and an operator's change both start from.
    static func lockedRow(_ query: PostgresQuery, on tx: PostgresConnection, logger: Logger) async throws -> (TargetHealth, Date)? {
        var found: (TargetHealth, Date)?
        for try await row in try await tx.query(query, logger: logger) {
            var cells = PostgresRowCells(row)
            let now: Date = try cells.next()
            if let health = try Self.health(from: &cells) { found = (health, now) }
        }
        return found
    }

    /// Nil when the row is absent (a LEFT JOIN's nulls); a state this release does not know
    /// throws `UnknownTargetState`.
    static func health(from cells: inout PostgresRowCells) throws -> TargetHealth? {
        let id: Int64? = try cells.next(), key: String? = try cells.next(), stateText: String? = try cells.next()
        let since: Date? = try cells.next(), failingSince: Date? = try cells.next(), consecutive: Int? = try cells.next()
        let windowStart: Date? = try cells.next(), windowAttempts: Int? = try cells.next(), windowFailures: Int? = try cells.next()
        let lastError: String? = try cells.next(), lastFailure: Date? = try cells.next(), lastSuccess: Date? = try cells.next()
        let probeWait: Int64? = try cells.next(), nextProbe: Date? = try cells.next(), probeDelivery: Int64? = try cells.next()
        let probeUntil: Date? = try cells.next(), disabledBy: String? = try cells.next()
        guard let id, let key, let stateText, let since else { return nil }
        guard let state = TargetState(rawValue: stateText) else { throw UnknownTargetState(id: id, key: key, state: stateText) }
        return TargetHealth(
            id: id, key: key, state: state, stateSince: since, failingSince: failingSince,
            consecutiveFailures: consecutive ?? 0, windowStartedAt: windowStart, windowAttempts: windowAttempts ?? 0,
            windowFailures: windowFailures ?? 0, lastError: lastError, lastFailureAt: lastFailure, lastSuccessAt: lastSuccess,
            probeWait: .milliseconds(probeWait ?? 0), nextProbeAt: nextProbe, probeDeliveryID: probeDelivery,
            probeUntil: probeUntil, disabledBy: disabledBy)
    }

    static func write(_ health: TargetHealth, on connection: PostgresConnection, logger: Logger) async throws {
        let lastError = health.lastError.map { StoredText.clean($0, maxCharacters: 2000) }
        try await connection.query("""
            UPDATE delivery_targets SET state = \(health.state.rawValue), state_since = \(health.stateSince),
                   failing_since = \(health.failingSince), consecutive_failures = \(health.consecutiveFailures),
                   window_started_at = \(health.windowStartedAt), window_attempts = \(health.windowAttempts),
                   window_failures = \(health.windowFailures), last_error = \(lastError),
                   last_failure_at = \(health.lastFailureAt), last_success_at = \(health.lastSuccessAt),
                   probe_wait_ms = \(health.probeWait.milliseconds), next_probe_at = \(health.nextProbeAt),
                   probe_delivery_id = \(health.probeDeliveryID), probe_until = \(health.probeUntil),
                   disabled_by = \(health.disabledBy), updated_at = now()
            WHERE key = \(health.key)
            """, logger: logger)
    }
}
