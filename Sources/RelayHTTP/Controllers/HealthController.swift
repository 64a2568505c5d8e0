public import Hummingbird
import NIOCore
import RelayModel
public import Prometheus

/// `/healthz` (the process answers), `/readyz` (it can store webhooks), `/metrics` (Prometheus).
/// Readiness is checked at most once a second (`CachedReadiness`). On the public port it says
/// only ready or not: which migrations are pending and what Entrupy thinks of the token are
/// for the operations port (ENTRUPY_RELAY_METRICS_PORT), which only operators reach.
public struct HealthController: Sendable {
    let readiness: any ReadinessCheck
    let registry: PrometheusCollectorRegistry
    /// False where `/metrics` lives on its own port (ENTRUPY_RELAY_METRICS_PORT).
    let servesMetrics: Bool
    /// Whether `/readyz` names each check's state (the operations port) or only the verdict.
    let detailed: Bool

    public init(readiness: any ReadinessCheck, registry: PrometheusCollectorRegistry, servesMetrics: Bool = true, detailed: Bool = true) {
        self.readiness = CachedReadiness(readiness)
        self.registry = registry
        self.servesMetrics = servesMetrics
        self.detailed = detailed
    }

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/healthz") { request, context in
            try ReadinessReport(ready: true, checks: ["process": "ok"]).response(from: request, context: context)
        }
        router.get("/readyz") { request, context in
            var report = await readiness.check()
            if detailed { report.version = RelayRelease.version } else { report.checks = [:] }
            var response = try report.response(from: request, context: context)
            response.status = report.ready ? .ok : .serviceUnavailable
            return response
        }
        guard servesMetrics else { return }
        router.get("/metrics") { _, _ in
            var buffer: [UInt8] = []
            buffer.reserveCapacity(16_384)
            registry.emit(into: &buffer)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer))
            )
        }
    }
}
