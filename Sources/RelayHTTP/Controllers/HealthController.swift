import Hummingbird
import NIOCore
import Prometheus

/// `/healthz` (the process answers), `/readyz` (it can store webhooks), `/metrics` (Prometheus).
public struct HealthController: Sendable {
    let readiness: any ReadinessCheck
    let registry: PrometheusCollectorRegistry
    /// False where `/metrics` lives on its own port (METRICS_PORT).
    let servesMetrics: Bool

    public init(readiness: any ReadinessCheck, registry: PrometheusCollectorRegistry, servesMetrics: Bool = true) {
        self.readiness = readiness
        self.registry = registry
        self.servesMetrics = servesMetrics
    }

    public func addRoutes(to router: Router<RelayRequestContext>) {
        router.get("/healthz") { request, context in
            try ReadinessReport(ready: true, checks: ["process": "ok"]).response(from: request, context: context)
        }
        router.get("/readyz") { request, context in
            let report = await readiness.check()
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
