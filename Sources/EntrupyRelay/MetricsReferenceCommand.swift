import ArgumentParser
import RelayRuntime

/// `metrics reference`: every metric, its type, labels and meaning (docs/monitoring.md's table, and
/// each one's `# HELP` at `/metrics`).
struct MetricsReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Print every metric as a Markdown table (docs/monitoring.md's is this output)."
    )

    func run() {
        print(RelayMetric.markdown(), terminator: "")
    }
}
