import ArgumentParser

/// `relay-bench`: load generators and measurements used by `deploy/bench/*.sh`.
@main
struct RelayBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-bench",
        abstract: "Benchmarks for entrupy-relay (run through deploy/bench/*.sh).",
        subcommands: [QueueBenchCommand.self, DriveSimulatorCommand.self, CallbackSinkCommand.self, SearchBenchCommand.self]
    )
}
