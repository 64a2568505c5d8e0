import ArgumentParser
import Foundation
import RelayApp
import RelayStore
import RelayHTTP

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Inspect received webhooks.",
        subcommands: [List.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List received webhooks, newest first.")

        @Option(help: "How many events to show (1 to 10000).")
        var limit: Int = 50

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func validate() throws {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let limit = self.limit
            let events = try await CommandEnvironment.database(environment) { client in
                try await PostgresWebhookEventRepository(client: client, logger: logger).list(limit: limit)
            }
            print(json ? try OutputFormat.json(events.map(APIWebhookEvent.init)) : OutputFormat.table(events))
        }
    }
}
