import ArgumentParser

/// `entrupy-relay`: the one executable. It only parses arguments and wires library code.
@main
struct EntrupyRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrupy-relay",
        abstract: "Receives Entrupy webhooks, stores them durably in PostgreSQL, and serves them.",
        subcommands: [ServeCommand.self, MigrateCommand.self, EventsCommand.self]
    )
}
