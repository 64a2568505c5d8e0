import ArgumentParser
import RelayModel

/// `entrupy-relay`: the one executable. It only parses arguments and wires library code.
@main
struct EntrupyRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entrupy-relay",
        abstract: "Receives Entrupy webhooks, reconciles items with the Entrupy API, and keeps their timelines in PostgreSQL.",
        version: RelayRelease.version,
        subcommands: [
            ServeCommand.self, WorkerCommand.self, MigrateCommand.self, EventsCommand.self, ItemsCommand.self,
            JobsCommand.self, BackfillCommand.self, SyncCommand.self, RulesCommand.self, DeliveriesCommand.self, TokensCommand.self,
            ConfigCommand.self, MetricsCommand.self, WebhooksCommand.self, EntrupyCommand.self, PruneCommand.self, EraseCommand.self, ChangesCommand.self,
            TargetsCommand.self, SilencesCommand.self,
        ]
    )
}
