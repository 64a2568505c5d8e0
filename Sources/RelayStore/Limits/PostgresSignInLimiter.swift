import Foundation
import Logging
public import PostgresNIO
import RelayDatabase

/// Failed sign-ins per client address in fixed windows, counted in PostgreSQL so that every
/// replica shares one allowance. Only failures reach it: a valid token costs nothing here.
public struct PostgresSignInLimiter: Sendable {
    let client: PostgresClient
    let logger: Logger
    public let limit: Int
    public let window: Duration

    public init(client: PostgresClient, limit: Int, window: Duration, logger: Logger) {
        self.client = client
        self.limit = max(1, limit)
        self.window = window
        self.logger = logger
    }

    /// Records one failure from `client` and returns how long it must now wait (its window's
    /// rest), or nil while it is under the limit. Also drops a few windows that have ended,
    /// so the table holds only the addresses that failed lately.
    public func recordFailure(_ address: String) async throws -> Duration? {
        let windowMS = window.milliseconds
        let rows = try await client.query("""
            WITH expired AS (
                DELETE FROM auth_failures WHERE client IN (
                    SELECT client FROM auth_failures
                    WHERE window_started < clock_timestamp() - \(windowMS) * interval '1 millisecond' AND client <> \(address)
                    LIMIT 20)),
            counted AS (
                INSERT INTO auth_failures AS f (client, window_started, failures) VALUES (\(address), clock_timestamp(), 1)
                ON CONFLICT (client) DO UPDATE SET
                    failures = CASE WHEN f.window_started < clock_timestamp() - \(windowMS) * interval '1 millisecond'
                                    THEN 1 ELSE f.failures + 1 END,
                    window_started = CASE WHEN f.window_started < clock_timestamp() - \(windowMS) * interval '1 millisecond'
                                          THEN clock_timestamp() ELSE f.window_started END
                RETURNING failures, window_started)
            SELECT failures, extract(epoch FROM window_started + \(windowMS) * interval '1 millisecond' - clock_timestamp())::float8
            FROM counted
            """, logger: logger)
        for try await (failures, remaining) in rows.decode((Int, Double).self) where failures >= limit {
            return .milliseconds(Int64(min(max(remaining, 0.001), 86_400) * 1000))
        }
        return nil
    }
}
