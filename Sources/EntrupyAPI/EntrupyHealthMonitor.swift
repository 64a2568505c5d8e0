import AsyncAlgorithms
public import Logging
import Metrics
public import ServiceLifecycle
import Synchronization
import RelayRuntime

/// Asks the version's health route every `interval` and keeps the answer, so `/readyz` can tell the
/// truth about Entrupy without calling it per probe, and `relay_entrupy_up` is 1 or 0. Entrupy
/// being down never makes the relay unready: the receiver must keep storing webhooks.
public final class EntrupyHealthMonitor: Service, Sendable {
    let api: EntrupyAPIClient
    let interval: Duration
    let logger: Logger
    private let state = Mutex(EntrupyHealth.unknown)
    private let gauge = MetricHandles.gauge(.entrupyUp)

    public init(api: EntrupyAPIClient, interval: Duration, logger: Logger) {
        self.api = api
        self.interval = interval
        self.logger = logger
    }

    public var current: EntrupyHealth { state.withLock { $0 } }

    /// Checks at once, then every `interval` until graceful shutdown, which also cuts a check
    /// under way short (an unreachable API can hold one for the whole request timeout).
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await self.check()
            for await _ in AsyncTimerSequence(interval: self.interval, clock: .continuous) {
                await self.check()
            }
        }
    }

    /// One check; returns what it found.
    @discardableResult
    public func check() async -> EntrupyHealth {
        guard var health = await probe() else { return current }
        if case .down = health, !Task.isCancelled {
            // One 503 or reset is Entrupy's passing trouble, not an outage: ask once more before saying so.
            try? await Task.sleep(for: .seconds(1))
            guard let again = await probe() else { return current }
            health = again
        }
        if Task.isCancelled { return current }
        let previous = state.withLock { state in
            defer { state = health }
            return state
        }
        gauge.record(health.isUp ? 1 : 0)
        if health != previous {
            if health.isUp {
                logger.info("Entrupy API reachable and the token accepted")
            } else {
                logger.warning("Entrupy API check failed", metadata: ["health": "\(health.summary)"])
            }
        }
        return health
    }

    /// Nil when the relay could not ask (its own database, which paces calls, did not answer):
    /// that says nothing about Entrupy.
    private func probe() async -> EntrupyHealth? {
        do {
            try await api.health()
            return .up
        } catch EntrupyAPIError.budgetUnavailable {
            return nil
        } catch {
            return EntrupyHealth(checking: error)
        }
    }
}
