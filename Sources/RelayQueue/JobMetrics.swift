import Metrics
import RelayRuntime

/// The worker's per-kind counters and timers, made once: asking the metrics factory for them
/// on every finished run cost a lookup under its lock and new label strings each time.
struct JobMetrics: Sendable {
    static let outcomes = ["completed", "snoozed", "retried", "dead", "lost"]

    private struct Kind: Sendable {
        let outcomes: [String: Counter]
        let duration: Metrics.Timer
    }

    private let kinds: [String: Kind]

    init(kinds: some Sequence<String>) {
        var made: [String: Kind] = [:]
        for kind in kinds { made[kind] = Self.make(kind) }
        self.kinds = made
    }

    /// `relay_jobs_total{kind,outcome}` and `relay_job_duration_seconds{kind}` for one run.
    func record(kind: String, outcome: String, duration: Duration) {
        let metrics = kinds[kind] ?? Self.make(kind)
        (metrics.outcomes[outcome] ?? MetricHandles.counter(.jobs, [("kind", kind), ("outcome", outcome)])).increment()
        metrics.duration.record(duration: duration)
    }

    private static func make(_ kind: String) -> Kind {
        Kind(outcomes: Dictionary(uniqueKeysWithValues: outcomes.map {
                 ($0, MetricHandles.counter(.jobs, [("kind", kind), ("outcome", $0)]))
             }),
             duration: MetricHandles.timer(.jobDuration, [("kind", kind)]))
    }
}
