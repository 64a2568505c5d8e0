import RelayModel
import Foundation
import Logging
import Metrics
public import PostgresNIO
import RelayDatabase
public import RelayRuntime

/// The Entrupy API budget in PostgreSQL, shared by every replica: the send times of the last
/// second's requests (a sliding window: no second, however it is cut, holds more than `limit`),
/// and a pause every replica obeys after a 429. A caller of lower priority sends only while
/// the window keeps its priority's reserve free, so when requests run short webhook
/// reconciles get them first.
public struct PostgresAPIBudget: EntrupyAPIBudget {
    let client: PostgresClient
    /// Requests allowed in any one second (`ENTRUPY_RELAY_ENTRUPY_API_RATE`).
    let limit: Int
    let name: String
    let logger: Logger
    /// More than a second: a request leaves a little after it took its place (the answer to the
    /// take, a busy event loop), and those delays must not bunch more than `limit` into one
    /// second at Entrupy's end. converge.sh saw 11 in a second with 1.05 s; 1.2 s leaves a fifth.
    public static let windowMilliseconds: Int64 = 1_200
    let windowMilliseconds: Int64
    /// Places this process took ahead (`APIBudgetReservoir`).
    let reservoir: APIBudgetReservoir

    /// - Parameter windowMilliseconds: the window `ratePerSecond` (then the count allowed in it) applies to.
    /// - Parameter aheadSlot: how long places taken ahead are kept, and the span demand is counted over (`APIBudgetReservoir`).
    public init(client: PostgresClient, ratePerSecond: Double, name: String = "entrupy",
                windowMilliseconds: Int64 = PostgresAPIBudget.windowMilliseconds,
                aheadSlot: Duration = APIBudgetReservoir.defaultSlot, logger: Logger) {
        self.client = client
        limit = Int(max(1, min(ratePerSecond, 100_000)).rounded(.down))
        self.name = name
        self.windowMilliseconds = max(1, windowMilliseconds)
        self.logger = logger
        reservoir = APIBudgetReservoir(limit: limit, slot: aheadSlot)
    }

    public func acquire(_ priority: APIPriority) async throws {
        if reservoir.draw(priority) { return }
        let reserve = Int((Double(limit) * priority.reserveShare).rounded(.down))
        let started = ContinuousClock.now
        while true {
            let wait: Duration?
            do {
                let places = reservoir.batchSize()
                defer { reservoir.settle(places) }
                wait = try await take(allowed: max(1, limit - reserve), places: places) { reservoir.keep($0 - 1, for: priority) }
            } catch let error as CancellationError {
                throw error
            } catch {
                // A cancelled wait for a pooled connection comes back as the pool's own error.
                if Task.isCancelled { throw CancellationError() }
                throw APIBudgetUnavailable(StoreFailure.describe(error))
            }
            guard let wait else {
                MetricHandles.timer(.entrupyBudgetWait, [("priority", priority.rawValue)])
                    .record(duration: ContinuousClock.now - started)
                return
            }
            // Waiters of every replica poll; a short cap keeps a higher priority's turn from waiting on a long sleep.
            try await Task.sleep(for: min(wait, .milliseconds(250)) + .milliseconds(Int64.random(in: 0...10)))
        }
    }

    /// Takes a place when fewer than `allowed` requests were sent in the window and no pause is
    /// on (up to `places` while there is room, handed to `took`); otherwise says how long to wait.
    func take(allowed: Int, places: Int = 1, took: (Int) -> Void = { _ in }, retried: Bool = false) async throws -> Duration? {
        // Taken by every Entrupy request of every replica, under the row's lock: it must be cheap.
        let rows = try await PreparedStatementRunner.rows(TakeStatement(budget: name, windowMilliseconds: windowMilliseconds,
                                                          limit: limit, allowed: allowed, places: places), on: client, logger: logger)
        for (taken, paused, untilSlotFrees) in rows {
            if taken > 0 {
                took(Int(taken))
                return nil
            }
            if paused > 0 { return .milliseconds(Int64(min(paused, 3600) * 1000) + 1) }
            return .milliseconds(Int64(min(max(untilSlotFrees, 0), Double(windowMilliseconds) / 1000) * 1000) + 1)
        }
        // The row is missing (a new caller's, or a database migrated by hand): put it and try again.
        try await client.query("INSERT INTO api_budget (name) VALUES (\(name)) ON CONFLICT (name) DO NOTHING", logger: logger)
        return retried ? .milliseconds(1) : try await take(allowed: allowed, places: places, took: took, retried: true)
    }

    public func pauseCallers(for duration: Duration) async {
        reservoir.empty()
        do {
            try await client.query("""
                UPDATE api_budget SET paused_until = greatest(paused_until, clock_timestamp() + \(duration.milliseconds) * interval '1 millisecond')
                WHERE name = \(name)
                """, logger: logger)
        } catch {
            logger.warning("could not record Entrupy's Retry-After in the shared budget", metadata: ["error": "\(StoreFailure.describe(error))"])
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
            logger.warning("could not read the shared API budget", metadata: ["error": "\(StoreFailure.describe(error))"])
        }
        return nil
    }
}
