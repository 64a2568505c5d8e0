import Logging
public import PostgresNIO
import RelayDatabase
import RelayRuntime
public import ServiceLifecycle
import Synchronization

/// Opens `ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE` of the pool's connections at start, before `/readyz` says
/// ready. A pool that opens its connections on demand opens them all at once under the first
/// burst after a start: on notify.sh's drive 33 forks and authentications landed in the first
/// half second of load, and the end-to-end latency of the first 3 seconds reached 0.5-0.8 s.
/// It holds every connection at the same time, so each is a distinct, working one; the pool
/// keeps them while they are used and for a minute idle (`DatabaseClientFactory`). If they cannot all be opened
/// within `deadline` (PostgreSQL down, `max_connections` too small), it gives up waiting: the
/// relay becomes ready on its database check alone.
public final class PoolWarmup: Service, Sendable {
    public enum Status: Sendable, Equatable {
        case warming(open: Int, of: Int)
        case warm(Int)
        case gaveUp(open: Int, of: Int)

        /// Whether readiness may stop waiting for it.
        public var isSettled: Bool {
            if case .warming = self { return false }
            return true
        }

        public var summary: String {
            switch self {
            case .warming(let open, let total): "warming: \(open) of \(total) connections open"
            case .warm(let total): "ok: \(total) connections open"
            case .gaveUp(let open, let total): "\(open) of \(total) connections opened before the warm-up gave up; the others open on demand"
            }
        }
    }

    let client: PostgresClient
    let connections: Int
    let deadline: Duration
    let logger: Logger
    private let state: Mutex<Status>

    /// - Parameter connections: how many to open and hold at once (0: nothing to do).
    public init(client: PostgresClient, connections: Int, deadline: Duration = .seconds(5), logger: Logger) {
        self.client = client
        self.connections = max(0, connections)
        self.deadline = deadline
        self.logger = logger
        state = Mutex(connections > 0 ? .warming(open: 0, of: connections) : .warm(0))
    }

    public var status: Status { state.withLock { $0 } }

    private var allOpen: Bool {
        state.withLock { if case .warming(let open, let total) = $0 { open >= total } else { true } }
    }

    public func run() async throws {
        // A SIGTERM during the warm-up ends it at once: the connections it holds are given back.
        if connections > 0 { try? await cancelWhenGracefulShutdown { await self.warm() } }
        // A service that returns would end the group: wait for the shutdown like the others.
        try? await gracefulShutdown()
    }

    func warm() async {
        let start = ContinuousClock.now
        let total = connections
        do {
            try await withDeadline(deadline) {
                try await withThrowingDiscardingTaskGroup { group in
                    for _ in 0..<total {
                        group.addTask {
                            try await self.client.withConnection { connection in
                                _ = try await connection.query("SELECT 1", logger: self.logger).collect()
                                self.state.withLock { if case .warming(let open, _) = $0 { $0 = .warming(open: open + 1, of: total) } }
                                // Hold it until every lease has its own connection.
                                while !self.allOpen { try await Task.sleep(for: .milliseconds(5)) }
                            }
                        }
                    }
                }
            }
            state.withLock { $0 = .warm(total) }
            logger.info("database pool warm", metadata: [
                "connections": "\(total)", "milliseconds": "\((ContinuousClock.now - start).milliseconds)"])
        } catch {
            let open = state.withLock { status -> Int in
                guard case .warming(let open, _) = status else { return total }
                status = .gaveUp(open: open, of: total)
                return open
            }
            logger.warning("could not open every database connection of the warm-up; not waiting for them", metadata: [
                "open": "\(open)", "wanted": "\(total)", "error": "\(PostgresErrorText.describe(error))",
                "hint": "check PostgreSQL's max_connections, or lower ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE"])
        }
    }
}
