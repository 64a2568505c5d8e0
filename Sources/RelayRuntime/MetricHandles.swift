public import Metrics
import Synchronization

/// Counters, timers and gauges made once per label and dimensions, then kept. Making one asks
/// the metrics factory (a lookup under its lock, its label strings built again) every time: on
/// paths that run for every item, delivery or API request, it is done on first use only.
public enum MetricHandles {
    private struct Made {
        var counters: [String: Counter] = [:]
        var timers: [String: Metrics.Timer] = [:]
        var gauges: [String: Gauge] = [:]
    }

    private static let made = Mutex(Made())

    public static func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
        handle(\.counters, label, dimensions) { Counter(label: label, dimensions: dimensions) }
    }

    public static func timer(_ label: String, _ dimensions: [(String, String)] = []) -> Metrics.Timer {
        handle(\.timers, label, dimensions) { Metrics.Timer(label: label, dimensions: dimensions) }
    }

    public static func gauge(_ label: String, _ dimensions: [(String, String)] = []) -> Gauge {
        handle(\.gauges, label, dimensions) { Gauge(label: label, dimensions: dimensions) }
    }

    private static func handle<Handle: Sendable>(_ kind: WritableKeyPath<Made, [String: Handle]>, _ label: String,
                                       _ dimensions: [(String, String)], make: () -> Handle) -> Handle {
        var key = label
        for (name, value) in dimensions { key += "\u{1F}" + name + "=" + value }
        return made.withLock { made in
            if let handle = made[keyPath: kind][key] { return handle }
            let handle = make()
            made[keyPath: kind][key] = handle
            return handle
        }
    }
}
