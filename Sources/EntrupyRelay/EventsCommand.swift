import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP

struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Inspect received webhooks.",
        subcommands: [List.self, Rejections.self]
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
                try await PostgresWebhookEventStore(client: client, logger: logger).list(limit: limit)
            }
            print(json ? try OutputFormat.json(events.map(APIWebhookEvent.init)) : OutputFormat.table(events))
        }
    }

    struct Rejections: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The last webhooks refused for their signature, newest first: which signature headers, the value's encoding and length (never the value or the body).")

        @Option(help: "How many to show (1 to 1000).")
        var limit: Int = 50

        @Flag(help: "Print a JSON array instead of a table.")
        var json = false

        func validate() throws {
            guard (1...1_000).contains(limit) else { throw ValidationError("--limit must be from 1 to 1000") }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let limit = self.limit
            let found = try await CommandEnvironment.database(environment) { client in
                try await PostgresWebhookEventStore(client: client, logger: logger).rejections(limit: limit)
            }
            if json {
                print(try OutputFormat.json(found.map(APIRejection.init)))
                return
            }
            if found.isEmpty {
                print("no webhook refused for its signature")
                return
            }
            let formatter = ISO8601DateFormatter()
            for rejection in found {
                let shape = rejection.shape
                let headers = shape.headers.isEmpty ? "no signature header" : shape.headers.joined(separator: ",")
                print("\(formatter.string(from: rejection.receivedAt))  \(shape.reason)  \(headers)  \(shape.encoding) of \(shape.length) characters"
                    + "  body \(rejection.bodyBytes.map { "\($0) bytes" } ?? "not read")  from \(TerminalText.printable(rejection.clientAddress ?? "unknown"))")
            }
        }
    }
}
