import ArgumentParser
import Foundation
import RelayApp
import RelayCore
import RelayStore
import RelayHTTP

struct DeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries", abstract: "Inspect and retry notifications.", subcommands: [List.self, Retry.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List deliveries, newest first.")

        @Option(help: "Only deliveries in this state: pending, failed, delivered or dead.")
        var state: String?

        @Option(help: "Only deliveries for this Entrupy ID.")
        var item: String?

        @Option(help: "The delivery with this idempotency key: the webhook-id header a partner quotes (or an email's Message-ID before the @).")
        var webhookID: String?

        @Option(help: "How many to show (1 to 10000).")
        var limit: Int = 50

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func validate() throws {
            guard (1...10_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 10000") }
            if let state, DeliveryState(rawValue: state) == nil {
                throw ValidationError("--state must be one of \(DeliveryState.allCases.map(\.rawValue).joined(separator: ", "))")
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let state = self.state.flatMap(DeliveryState.init(rawValue:)), item = self.item, webhookID = self.webhookID, limit = self.limit
            let deliveries = try await CommandEnvironment.database(environment) { client in
                try await PostgresDeliveryRepository(client: client, logger: logger)
                    .list(state: state, entrupyID: item, webhookID: webhookID, limit: limit)
            }
            if json {
                print(try OutputFormat.json(deliveries.map(APIDelivery.init)))
                return
            }
            let rows = deliveries.map { delivery in
                [String(delivery.id), delivery.entrupyID, delivery.transition, delivery.rule, delivery.channel.rawValue,
                 delivery.target, delivery.state.rawValue, String(delivery.attempts), delivery.lastError ?? "-"]
            }
            print(rows.isEmpty ? "no deliveries" : OutputFormat.render(
                header: ["ID", "ENTRUPY ID", "TRANSITION", "RULE", "CHANNEL", "TARGET", "STATE", "ATTEMPTS", "LAST ERROR"], rows: rows))
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Attempt a dead or failed delivery again now, with the same idempotency key."
        )

        @Argument(help: "The delivery ID.")
        var id: Int64

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let id = self.id
            let outcome = try await CommandEnvironment.database(environment) { client in
                try await PostgresDeliveryRepository(client: client, logger: logger).retry(id: id)
            }
            switch outcome {
            case .queued: print("delivery \(id) will be attempted again now")
            case .notFound: CommandEnvironment.fail("delivery \(id) does not exist")
            case .alreadyDelivered: CommandEnvironment.fail("delivery \(id) was already delivered")
            case .payloadRemoved(let why): CommandEnvironment.fail("delivery \(id) cannot be sent again: its payload was \(why)")
            case .inFlight: CommandEnvironment.fail("delivery \(id) is being attempted right now")
            }
        }
    }
}
