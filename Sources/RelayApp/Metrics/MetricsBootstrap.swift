import Metrics
public import Prometheus
import RelayModel
import Synchronization
import RelayRuntime

/// Points swift-metrics at one Prometheus registry for the whole process (the metrics
/// system can be bootstrapped only once), and returns that registry for `/metrics`.
public enum MetricsBootstrap {
    private static let registry = Mutex<PrometheusCollectorRegistry?>(nil)

    public static func prometheus() -> PrometheusCollectorRegistry {
        registry.withLock { existing in
            if let existing { return existing }
            let created = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(RelayMetricsFactory(
                registry: created,
                durationBuckets: [
                    .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                    .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
                    .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
                ],
                valueBuckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576]
            ))
            // Which release is running, as Prometheus's convention has it: a gauge of 1 labelled with it.
            MetricHandles.gauge(.buildInfo, [("version", RelayRelease.version)]).record(1)
            existing = created
            return created
        }
    }
}
