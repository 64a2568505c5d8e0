public import Foundation
public import Logging
import Metrics
public import PostgresNIO
import RelayDatabase
import RelayStore
public import ServiceLifecycle
import Synchronization
import RelayRuntime

/// How long the change feed has been held back, checked every few seconds: the age of the
/// oldest transaction still running anywhere in the cluster (every transition written after it
/// waits for it to end, so one session left open in a transaction serves every follower
/// nothing). It is `relay_change_feed_lag_seconds`, a `change_feed` line in `/readyz` on the
/// operations port, and a warning in the log past `warnAfter`; it never makes the relay unready.
/// The age is the transaction's own when the relay's role may see it (`pg_read_all_stats`),
/// else how long this monitor has seen that same transaction be the oldest.
public final class ChangeFeedLagMonitor: Service, Sendable {
    /// Often enough for a scrape every 15 s; one small query each time.
    static let interval: Duration = .seconds(5)
    /// Past this a warning names the session (`pg_terminate_backend(pid)` ends it).
    static let warnAfter: Double = 60

    struct State {
        var oldest: UInt64 = 0
        var oldestSince = Date()
        var lastWarning: Date?
        var summary = "unknown: not checked yet"
    }

    let feed: PostgresChangeFeed
    let logger: Logger
    private let state = Mutex(State())
    private let gauge = MetricHandles.gauge(.changeFeedLag)

    public init(client: PostgresClient, logger: Logger) {
        self.feed = PostgresChangeFeed(client: client, logger: logger)
        self.logger = logger
    }

    /// The line `/readyz` shows under `change_feed`.
    public var summary: String { state.withLock { $0.summary } }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.check()
                try? await Task.sleep(for: Self.interval)
            }
        }
    }

    /// One check; answers the lag in seconds (nil when the database did not answer).
    @discardableResult
    public func check(now: Date = Date()) async -> Double? {
        let hold: ChangeFeedHold
        do {
            hold = try await feed.hold()
        } catch {
            logger.debug("change feed lag: database check failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            return nil
        }
        let (lag, warn) = state.withLock { state in
            if hold.oldest != state.oldest { (state.oldest, state.oldestSince) = (hold.oldest, now) }
            let lag = hold.isHeld ? max(hold.age ?? 0, now.timeIntervalSince(state.oldestSince)) : 0
            state.summary = lag < 1 ? "ok" : "held back \(Int(lag)) s by an open transaction (\(hold.holder)); not unready"
            let warn = lag >= Self.warnAfter && (state.lastWarning.map { now.timeIntervalSince($0) >= Self.warnAfter } ?? true)
            if warn { state.lastWarning = now }
            return (lag, warn)
        }
        gauge.record(lag)
        if warn {
            logger.warning("change feed held back by an open transaction: followers are served nothing until it ends", metadata: [
                "lag_seconds": "\(Int(lag))", "holder": "\(hold.holder)", "transaction": "\(hold.oldest)",
            ])
        }
        return lag
    }
}
