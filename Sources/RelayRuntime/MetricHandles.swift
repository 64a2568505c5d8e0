import Metrics
import Synchronization

/// Counters, timers and gauges made once per label and dimensions, then kept. Making one asks
/// the metrics factory (a lookup under its lock, its label strings built again) every time: on
/// paths that run for every item, delivery or API request, it is done on first use only.
public enum MetricHandles {
    private static let counters = Mutex<[String: Counter]>([:])
    private static let timers = Mutex<[String: Metrics.Timer]>([:])
    private static let gauges = Mutex<[String: Gauge]>([:])

    public static func counter(_ label: String, _ dimensions: [(String, String)] = []) -> Counter {
        let key = key(label, dimensions)
        return counters.withLock { made in
            if let counter = made[key] { return counter }
            let counter = Counter(label: label, dimensions: dimensions)
            made[key] = counter
            return counter
        }
    }

    public static func timer(_ label: String, _ dimensions: [(String, String)] = []) -> Metrics.Timer {
        let key = key(label, dimensions)
        return timers.withLock { made in
            if let timer = made[key] { return timer }
            let timer = Metrics.Timer(label: label, dimensions: dimensions)
            made[key] = timer
            return timer
        }
    }

    public static func gauge(_ label: String, _ dimensions: [(String, String)] = []) -> Gauge {
        let key = key(label, dimensions)
        return gauges.withLock { made in
            if let gauge = made[key] { return gauge }
            let gauge = Gauge(label: label, dimensions: dimensions)
            made[key] = gauge
            return gauge
        }
    }

    private static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        var key = label
        for (name, value) in dimensions {
            key += "\u{1F}" + name + "=" + value
        }
        return key
    }
}
