import Metrics
import Prometheus
import RelayApp
import RelayRuntime
import Testing

/// The factory behind `/metrics`: each catalog metric carries its meaning as HELP, and names
/// from libraries are made ones Prometheus's linter accepts.
@Suite("The metrics factory")
struct MetricsFactoryTests {
    static func exposition(_ make: (RelayMetricsFactory) -> Void) -> String {
        let registry = PrometheusCollectorRegistry()
        make(RelayMetricsFactory(registry: registry, durationBuckets: [.milliseconds(10), .seconds(1)], valueBuckets: [1, 10]))
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func aCatalogMetricCarriesItsMeaningAsHelp() {
        let text = Self.exposition { factory in
            factory.makeCounter(label: "relay_jobs_total", dimensions: [("kind", "deliver"), ("outcome", "completed")]).increment(by: 1)
            factory.makeTimer(label: "relay_job_claim_duration_seconds", dimensions: []).recordNanoseconds(1_000_000)
            factory.makeRecorder(label: "relay_ingest_batch_size", dimensions: [], aggregate: true).record(Int64(3))
        }
        for metric in [RelayMetric.jobs, .jobClaimDuration, .ingestBatchSize] {
            #expect(text.contains("# HELP \(metric.name) \(metric.meaning)\n"), "\(text)")
            #expect(text.contains("# TYPE \(metric.name) \(metric.kind.prometheusType)\n"), "\(text)")
        }
    }

    /// Hummingbird's `hb.requests` counter lacked `_total` (promtool said so): it is exposed with it.
    @Test func hummingbirdsCounterIsExposedWithTotal() {
        let text = Self.exposition { factory in
            factory.makeCounter(label: "hb.requests", dimensions: [("http.route", "/healthz"), ("http.request.method", "GET"),
                                                                   ("http.response.status_code", "200")]).increment(by: 1)
        }
        #expect(text.contains(#"hb_requests_total{http_route="/healthz",http_request_method="GET",http_response_status_code="200"} 1"#), "\(text)")
        #expect(text.contains("# HELP hb_requests_total \(RelayMetric.httpRequests.meaning)\n"))
        #expect(RelayMetricsFactory.exposedName("hb.request.errors", counter: true) == "hb_request_errors_total")
        #expect(RelayMetricsFactory.exposedName("relay_jobs_total", counter: true) == "relay_jobs_total")
        #expect(RelayMetricsFactory.exposedName("http.server.request.duration", counter: false) == "http_server_request_duration")
    }
}
