import Foundation
import Logging
import Metrics
import PostgresNIO
import RelayRuntime

/// The Entrupy API budget in PostgreSQL, shared by every replica: a token bucket of `burst`
/// refilled at `rate` per second (by the database's clock), and a pause every replica obeys
/// after a 429. A caller of lower priority takes a token only while the bucket keeps its
/// priority's reserve, so when tokens run short webhook reconciles get them first.
public struct PostgresAPIBudget: EntrupyAPIBudget {
    let client: PostgresClient
    let rate: Double
    let burst: Double
    let name: String
    let logger: Logger

    public init(client: PostgresClient, ratePerSecond: Double, burst: Double? = nil, name: String = "entrupy", logger: Logger) {
        self.client = client
        rate = max(ratePerSecond, 0.001)
        self.burst = max(burst ?? ratePerSecond, 1)
        self.name = name
        self.logger = logger
    }

    public func acquire(_ priority: APIPriority) async throws {
        let reserve = (burst * priority.reserveShare).rounded(.down)
        let started = ContinuousClock.now
        while true {
            let wait: Duration?
            do {
                wait = try await take(reserve: reserve)
            } catch let error as CancellationError {
                throw error
            } catch {
                throw APIBudgetUnavailable(StoreError.describe(error))
            }
            guard let wait else {
                Metrics.Timer(label: "relay_entrupy_budget_wait_seconds", dimensions: [("priority", priority.rawValue)])
                    .record(duration: ContinuousClock.now - started)
                return
            }
            // Waiters of every replica poll; a short cap keeps a higher priority's turn from waiting on a long sleep.
            try await Task.sleep(for: min(wait, .milliseconds(250)) + .milliseconds(Int64.random(in: 0...10)))
        }
    }

    /// Takes a token when the bucket holds one more than `reserve` and no pause is on; otherwise
    /// says how long to wait.
    func take(reserve: Double) async throws -> Duration? {
        let rows = try await client.query("""
            WITH current AS (
                SELECT paused_until, clock_timestamp() AS at,
                       least(\(burst), tokens + greatest(0, extract(epoch FROM clock_timestamp() - updated_at)) * \(rate)) AS available
                FROM api_budget WHERE name = \(name) FOR UPDATE),
            taken AS (
                UPDATE api_budget SET tokens = current.available - 1, updated_at = current.at
                FROM current
                WHERE api_budget.name = \(name) AND current.paused_until <= current.at AND current.available >= 1 + \(reserve)
                RETURNING 1)
            SELECT (SELECT count(*) FROM taken)::int8,
                   extract(epoch FROM greatest(paused_until - at, interval '0'))::float8, available::float8
            FROM current
            """, logger: logger)
        for try await (taken, paused, available) in rows.decode((Int64, Double, Double).self) {
            if taken > 0 { return nil }
            if paused > 0 { return .milliseconds(Int64(min(paused, 3600) * 1000) + 1) }
            let missing = max(0, 1 + reserve - available)
            return .milliseconds(Int64(min(missing / rate, 60) * 1000) + 1)
        }
        // The row is missing (a database migrated by hand?): put it back and try again.
        try await client.query("INSERT INTO api_budget (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING", logger: logger)
        return .milliseconds(1)
    }

    public func pauseCallers(for duration: Duration) async {
        do {
            try await client.query("""
                UPDATE api_budget SET paused_until = greatest(paused_until, clock_timestamp() + \(duration.milliseconds) * interval '1 millisecond'),
                       tokens = 0, updated_at = clock_timestamp()
                WHERE name = \(name)
                """, logger: logger)
        } catch {
            logger.warning("could not record Entrupy's Retry-After in the shared budget", metadata: ["error": "\(StoreError.describe(error))"])
        }
    }

    public func remainingPause() async -> Duration? {
        do {
            let rows = try await client.query("""
                SELECT extract(epoch FROM greatest(paused_until - clock_timestamp(), interval '0'))::float8 FROM api_budget WHERE name = \(name)
                """, logger: logger)
            for try await seconds in rows.decode(Double.self) where seconds > 0 {
                return .milliseconds(Int64(min(seconds, 3600) * 1000) + 1)
            }
        } catch {
            logger.warning("could not read the shared API budget", metadata: ["error": "\(StoreError.describe(error))"])
        }
        return nil
    }
}
