import ArgumentParser

/// `metrics reference`: what `/metrics` shows, documented without starting anything.
struct MetricsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "metrics", abstract: "List the metrics the relay exposes at /metrics.",
        subcommands: [MetricsReferenceCommand.self]
    )
}
