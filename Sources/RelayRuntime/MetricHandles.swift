public import Metrics
import Synchronization

/// Counters, timers, gauges and recorders made once per metric and dimensions, then kept. Making
/// one asks the metrics factory (a lookup under its lock, its label strings built again) every
/// time: on paths that run for every item, delivery or API request, it is done on first use only.
/// A metric is named by its entry in `RelayMetric.catalog`, so nothing outside it can be emitted.
public enum MetricHandles {
    private struct Made {
        var counters: [String: Counter] = [:]
        var timers: [String: Metrics.Timer] = [:]
        var gauges: [String: Gauge] = [:]
        var recorders: [String: Recorder] = [:]
    }

    private static let made = Mutex(Made())

    public static func counter(_ metric: RelayMetric, _ dimensions: [(String, String)] = []) -> Counter {
        handle(\.counters, metric, .counter, dimensions) { Counter(label: metric.name, dimensions: dimensions) }
    }

    public static func timer(_ metric: RelayMetric, _ dimensions: [(String, String)] = []) -> Metrics.Timer {
        handle(\.timers, metric, .timer, dimensions) { Metrics.Timer(label: metric.name, dimensions: dimensions) }
    }

    public static func gauge(_ metric: RelayMetric, _ dimensions: [(String, String)] = []) -> Gauge {
        handle(\.gauges, metric, .gauge, dimensions) { Gauge(label: metric.name, dimensions: dimensions) }
    }

    /// A histogram of values (`Recorder` aggregating).
    public static func recorder(_ metric: RelayMetric, _ dimensions: [(String, String)] = []) -> Recorder {
        handle(\.recorders, metric, .recorder, dimensions) { Recorder(label: metric.name, dimensions: dimensions) }
    }

    private static func handle<Handle: Sendable>(_ kind: WritableKeyPath<Made, [String: Handle]>, _ metric: RelayMetric,
                                                 _ expected: RelayMetric.Kind, _ dimensions: [(String, String)],
                                                 make: () -> Handle) -> Handle {
        var key = metric.name
        for (name, value) in dimensions { key += "\u{1F}" + name + "=" + value }
        return made.withLock { made in
            if let handle = made[keyPath: kind][key] { return handle }
            assert(metric.kind == expected, "\(metric.name) is a \(metric.kind.rawValue) in the catalog, not a \(expected.rawValue)")
            assert(dimensions.map(\.0) == metric.labels, "\(metric.name) has the labels \(metric.labels) in the catalog")
            let handle = make()
            made[keyPath: kind][key] = handle
            return handle
        }
    }
}
