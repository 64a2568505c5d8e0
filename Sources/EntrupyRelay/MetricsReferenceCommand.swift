import ArgumentParser
import RelayRuntime

/// `metrics reference`: every metric, its type, labels and meaning (the README's table, and
/// each one's `# HELP` at `/metrics`).
struct MetricsReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reference", abstract: "Print every metric as a Markdown table (the README's is this output)."
    )

    func run() {
        print(RelayMetric.markdown(), terminator: "")
    }
}
