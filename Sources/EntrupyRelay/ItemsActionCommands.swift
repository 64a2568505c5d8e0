import ArgumentParser
import EntrupyAPI
import Foundation
import RelayApp
import RelayModel
import RelayStore
import RelayHTTP

extension ItemsCommand {
    /// `items flag ID --reason R [--comment C]`: what `POST /v1/items/{id}/flag` does, as `cli (USER)`.
    struct FlagItem: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "flag", abstract: "Flag an item's result at Entrupy (support disputes it), recorded with who asked; a repeat is not sent again.")

        @Argument(help: "An Entrupy ID or a customer item ID.")
        var id: String

        @Option(help: "One of the item's flag reasons (`items show` lists those Entrupy names; else ENTRUPY_RELAY_ENTRUPY_FLAG_REASONS; any when neither).")
        var reason: String

        @Option(help: "A comment for Entrupy's support (at most 2,000 characters).")
        var comment: String?

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false, reconciling: true)
            let (settings, logger) = (environment.settings, environment.logger)
            let (id, reason, comment, by) = (self.id, self.reason, self.comment, CommandOperator.name)
            let answer: Result<ItemFlagger.Outcome, APIError> = try await CommandEnvironment.database(environment) { client in
                guard let detail = try await PostgresItemStore(client: client, logger: logger).detail(id) else {
                    return .failure(APIError(.notFound, "no item with Entrupy ID or customer item ID \"\(id.prefix(256))\""))
                }
                let http = EntrupyAPIClient.makeHTTPClient()
                let api = WorkerAssembly.apiClient(settings: settings, http: http, database: client, logger: logger)
                let actions = ItemActions.postgres(client: client, api: api, settings: settings, logger: logger)
                let answer: Result<ItemFlagger.Outcome, APIError>
                do {
                    answer = .success(try await actions.flagger.flag(detail, named: id, reason: reason, comment: comment, by: by, logger: logger))
                } catch let error as APIError {
                    answer = .failure(error)
                }
                try? await http.shutdown()
                return answer
            }
            switch answer {
            case .success(let outcome):
                print(json ? try OutputFormat.json(APIFlagRequest(outcome.request, repeated: outcome.repeated)) : Self.line(outcome))
            case .failure(let error): CommandEnvironment.fail("\(error.status.code): \(error.message)")
            }
        }

        static func line(_ outcome: ItemFlagger.Outcome) -> String {
            let flag = outcome.request
            let repeated = outcome.repeated ? " (a repeat: Entrupy was not asked again)" : ""
            return TerminalText.printable("flag \(flag.id) on \(flag.entrupyID) \(flag.state.rawValue)\(repeated): \(flag.answer ?? "asking Entrupy")")
        }
    }

    /// `items refresh ID`: what `POST /v1/items/{id}/refresh` does.
    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh", abstract: "Have an item fetched from Entrupy now (ahead of waiting work), joining any fetch of it already under way.")

        @Argument(help: "An Entrupy ID or a customer item ID.")
        var id: String

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let id = self.id
            guard let found = try await CommandEnvironment.database(environment, { client -> (String, RefreshOutcome)? in
                let items = PostgresItemStore(client: client, logger: logger)
                guard let detail = try await items.detail(id) else { return nil }
                return (detail.entrupyID, try await items.refreshNow(entrupyID: detail.entrupyID))
            }) else {
                CommandEnvironment.fail("no item with Entrupy ID or customer item ID \"\(id)\"")
            }
            let (entrupyID, outcome) = found
            let answer = APIRefreshAccepted(entrupyID: entrupyID, outcome: outcome)
            print(json ? try OutputFormat.json(answer) : TerminalText.printable("\(entrupyID): \(outcome.action): \(outcome.message)"))
        }
    }
}
