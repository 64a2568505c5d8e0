public import CoreMetrics
public import Prometheus
import RelayRuntime

/// swift-metrics to one Prometheus registry, as `PrometheusMetricsFactory` does, but each metric
/// gets its catalog meaning as its `# HELP` line (swift-prometheus's own factory gives none), and
/// every name, the libraries' too, is made one Prometheus accepts: `hb.requests` is exposed as
/// `hb_requests_total`, since a counter's name ends in `_total`.
public struct RelayMetricsFactory: MetricsFactory {
    public let registry: PrometheusCollectorRegistry
    public var durationBuckets: [Duration]
    public var valueBuckets: [Double]

    public init(registry: PrometheusCollectorRegistry, durationBuckets: [Duration], valueBuckets: [Double]) {
        self.registry = registry
        self.durationBuckets = durationBuckets
        self.valueBuckets = valueBuckets
    }

    /// The name `/metrics` shows for a swift-metrics label: characters Prometheus refuses become
    /// `_`, and a counter's name ends in `_total`.
    public static func exposedName(_ label: String, counter: Bool) -> String {
        let name = prometheusName(label)
        return counter && !name.hasSuffix("_total") ? name + "_total" : name
    }

    static func prometheusName(_ text: String) -> String {
        var name = String(text.unicodeScalars.map { scalar -> Character in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_": Character(scalar)
            default: "_"
            }
        })
        if let first = name.unicodeScalars.first, ("0"..."9").contains(first) { name = "_" + name }
        return name
    }

    private static func labels(_ dimensions: [(String, String)]) -> [(String, String)] {
        dimensions.map { (prometheusName($0.0), $0.1) }
    }

    private static func help(_ name: String) -> String { RelayMetric.named(name)?.meaning ?? "" }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        let name = Self.exposedName(label, counter: true)
        return registry.makeCounter(name: name, labels: Self.labels(dimensions), help: Self.help(name))
    }

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        let name = Self.exposedName(label, counter: true)
        return registry.makeCounter(name: name, labels: Self.labels(dimensions), help: Self.help(name))
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let name = Self.exposedName(label, counter: false)
        guard aggregate else { return registry.makeGauge(name: name, labels: Self.labels(dimensions), help: Self.help(name)) }
        return registry.makeValueHistogram(name: name, labels: Self.labels(dimensions), buckets: valueBuckets, help: Self.help(name))
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        let name = Self.exposedName(label, counter: false)
        return registry.makeGauge(name: name, labels: Self.labels(dimensions), help: Self.help(name))
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let name = Self.exposedName(label, counter: false)
        return registry.makeDurationHistogram(name: name, labels: Self.labels(dimensions), buckets: durationBuckets, help: Self.help(name))
    }

    public func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    public func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    public func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
