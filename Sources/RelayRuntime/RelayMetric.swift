/// One metric the relay emits: its name as `/metrics` shows it, its type, its labels and what it
/// means (the `# HELP` line and docs/monitoring.md's table). Every one is in `RelayMetric.catalog`; a
/// metric can only be made through `MetricHandles` from an entry of it, since the initializer is
/// this module's alone.
public struct RelayMetric: Sendable, Hashable {
    public enum Kind: String, Sendable {
        /// Only goes up; the name ends in `_total`.
        case counter
        /// A value set from time to time.
        case gauge
        /// A histogram of durations, in seconds.
        case timer
        /// A histogram of values (sizes, counts).
        case recorder

        /// The type Prometheus's `# TYPE` line says.
        public var prometheusType: String {
            switch self {
            case .counter: "counter"
            case .gauge: "gauge"
            case .timer, .recorder: "histogram"
            }
        }
    }

    public let name: String
    public let kind: Kind
    /// The label names, in the order the emitting code gives them.
    public let labels: [String]
    /// One line: what a rise or a value says.
    public let meaning: String

    init(_ name: String, _ kind: Kind, labels: [String] = [], _ meaning: String) {
        self.name = name
        self.kind = kind
        self.labels = labels
        self.meaning = meaning
    }

    /// The catalog's entry exposed under `name`, if any.
    public static func named(_ name: String) -> RelayMetric? { byName[name] }

    private static let byName: [String: RelayMetric] = Dictionary(catalog.map { ($0.name, $0) }) { first, _ in first }
}
