import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP

struct ItemsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items", abstract: "Look at reconciled items; flag one at Entrupy, or have it fetched now.", subcommands: [Search.self, Show.self, FlagItem.self, Refresh.self]
    )

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "An item's state, timeline, webhooks, fetches, deliveries and attempts.")

        @Argument(help: "An Entrupy ID or a customer item ID.")
        var id: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let id = self.id
            guard let item = try await CommandEnvironment.database(environment, { client in
                try await PostgresItemStore(client: client, logger: logger).detail(id)
            }) else {
                CommandEnvironment.fail("no item with Entrupy ID or customer item ID \"\(id)\"")
            }
            print(json ? try OutputFormat.json(APIItemDetail(item)) : OutputFormat.item(item))
        }
    }
}
