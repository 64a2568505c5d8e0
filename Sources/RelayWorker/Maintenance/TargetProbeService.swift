import AsyncAlgorithms
public import Logging
import Metrics
public import RelayModel
import RelayDatabase
import RelayRuntime
public import ServiceLifecycle

/// Each second: starts the probes that are due (an open target's oldest held delivery runs
/// now as its probe) and drains the held backlog of healthy targets at `drainPerSecond` each;
/// every few seconds refreshes the per-target gauges. Every replica runs it; the store's row
/// locks keep them from doing one target's work twice.
public struct TargetProbeService: Service {
    let store: any TargetMaintaining
    let policy: BreakerPolicy
    /// How long a probe's claim holds: past it (its worker died) another delivery probes.
    let probeLease: Duration
    let logger: Logger
    private let failures = MetricHandles.counter(.targetMaintenanceFailures)

    public init(store: any TargetMaintaining, policy: BreakerPolicy, probeLease: Duration, logger: Logger) {
        self.store = store
        self.policy = policy
        self.probeLease = probeLease
        self.logger = logger
    }

    public func run() async throws {
        var tick = 0
        for await _ in AsyncTimerSequence(interval: .seconds(1), clock: .continuous).cancelOnGracefulShutdown() {
            await step(gauges: tick % 5 == 0)
            tick &+= 1
        }
    }

    func step(gauges: Bool) async {
        do {
            let probes = try await store.startProbes(lease: probeLease)
            if !probes.isEmpty { logger.info("probing targets", metadata: ["delivery_ids": "\(probes)"]) }
            let released = try await store.drain(perTarget: policy.drainPerSecond, spacing: .seconds(1) / policy.drainPerSecond)
            if released > 0 {
                MetricHandles.counter(.deliveriesReleased).increment(by: released)
                logger.info("held deliveries released", metadata: ["count": "\(released)"])
            }
            if gauges { try await refreshGauges() }
        } catch {
            failures.increment()
            logger.warning("target maintenance failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
        }
    }

    func refreshGauges() async throws {
        for target in try await store.list() {
            let state: Double = switch target.health.state { case .healthy: 0; case .open: 1; case .disabled: 2 }
            MetricHandles.gauge(.targetState, [("target", target.health.key)]).record(state)
            MetricHandles.gauge(.targetHeldDeliveries, [("target", target.health.key)]).record(target.held)
        }
    }
}
