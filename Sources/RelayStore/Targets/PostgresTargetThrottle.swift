import Logging
public import PostgresNIO
public import RelayModel
import RelayDatabase

/// Throttled targets' slots on PostgreSQL (`target_throttle`, migration 0041), shared by every
/// replica, so together they send no faster than a target's rate limit. One statement a
/// delivery, under the target's row lock; times are the database's (`clock_timestamp()`), so
/// replicas with skewed clocks agree. See `ThrottleAnswer` for slots and appointments.
public struct PostgresTargetThrottle: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// A slot for one delivery to `key`, slots `limit.period` apart: taken when it is due within
    /// `ThrottleAnswer.horizon`; else no slot is taken and an appointment is given, booked (the
    /// next one moves a period on) only when it is within `longestWait`: past it the job wakes at
    /// `longestWait` and asks again, so appointments are never booked further ahead than that.
    /// A row last written under another period (the limit changed) is reset first, in the same
    /// statement: its next slot at most one new period away, appointments booked again from it.
    /// The target's first delivery creates its row, taking the slot now.
    public func take(key: String, limit: TargetRateLimit, longestWait: Duration) async throws -> ThrottleAnswer {
        let period = limit.periodMicroseconds, horizon = ThrottleAnswer.horizon.milliseconds * 1_000
        let longest = max(longestWait.milliseconds, 1) * 1_000
        for _ in 0..<2 {
            let rows = try await client.query("""
                WITH current AS (
                    SELECT next_slot, next_call, period_us, clock_timestamp() AS at FROM target_throttle WHERE key = \(key) FOR UPDATE),
                kept AS (
                    SELECT at, CASE WHEN period_us = \(period) THEN next_slot
                                    ELSE least(next_slot, at + \(period) * interval '1 microsecond') END AS next_slot,
                           CASE WHEN period_us = \(period) THEN next_call ELSE at END AS next_call
                    FROM current),
                decided AS (
                    SELECT at, next_slot, next_call, greatest(next_slot, at) AS slot, greatest(next_call, next_slot) AS call,
                           greatest(next_slot, at) <= at + \(horizon) * interval '1 microsecond' AS take,
                           greatest(next_call, next_slot) <= at + \(longest) * interval '1 microsecond' AS book
                    FROM kept),
                written AS (
                    UPDATE target_throttle t
                    SET next_slot = CASE WHEN d.take THEN d.slot + \(period) * interval '1 microsecond' ELSE d.next_slot END,
                        next_call = CASE WHEN d.book AND NOT d.take THEN d.call + \(period) * interval '1 microsecond' ELSE d.next_call END,
                        period_us = \(period), updated_at = d.at
                    FROM decided d WHERE t.key = \(key)
                    RETURNING d.take, extract(epoch FROM (CASE WHEN d.take THEN d.slot ELSE d.call END) - d.at)::float8)
                SELECT * FROM written
                """, logger: logger)
            for try await (take, wait) in rows.decode((Bool, Double).self) {
                let duration = Duration.milliseconds(Int64((max(0, min(wait, 30 * 86_400)) * 1_000).rounded(.up)))
                return take ? .slot(wait: duration) : .later(appointment: duration)
            }
            let inserted = try await client.query("""
                INSERT INTO target_throttle (key, next_slot, next_call, period_us)
                VALUES (\(key), clock_timestamp() + \(period) * interval '1 microsecond', clock_timestamp(), \(period))
                ON CONFLICT (key) DO NOTHING RETURNING true
                """, logger: logger)
            for try await _ in inserted.decode(Bool.self) { return .slot(wait: .zero) }
        }
        // Two replicas raced to create the row and this one lost twice: come back in a moment.
        return .later(appointment: limit.period)
    }
}
