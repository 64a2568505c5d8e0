import ArgumentParser
import Foundation
import RelayApp
import RelayModel
import RelayStore

struct TokensCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens", abstract: "API tokens for the query API, the console and the SDK endpoint.",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a token and print it (last line). It is stored hashed and cannot be shown again."
        )

        @Option(help: "admin (everything), support (read, retry deliveries, reconcile) or consumer (read items, authorize SDK users).")
        var role: Role

        @Option(help: "A name to recognise and revoke it by, unique among active tokens.")
        var name: String

        @Option(help: "Days until the token stops working (1 to 3650); without it the token works until revoked.")
        var expiresInDays: Int?

        @Flag(help: "Print {\"token\": ..., \"name\": ..., \"role\": ...} instead.")
        var json = false

        func validate() throws {
            if let days = expiresInDays, !(1...3_650).contains(days) {
                throw ValidationError("--expires-in-days must be from 1 to 3650")
            }
        }

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let role = self.role, name = self.name, days = expiresInDays
            let created = try await CommandEnvironment.database(environment) { client in
                try await PostgresTokenStore(client: client, logger: logger).create(name: name, role: role, expiresInDays: days)
            }
            if json {
                print(JSONValue.object(["token": .string(created.token), "name": .string(created.record.name),
                                        "role": .string(role.rawValue)]).jsonText)
            } else {
                let expiry = created.record.expiresAt.map { " (expires \(ISO8601DateFormatter().string(from: $0)))" } ?? ""
                print("created \(role.rawValue) token \"\(created.record.name)\"\(expiry); store it now, it is not shown again:")
                print(created.token)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tokens (names, roles, use; never the tokens).")

        @Flag(help: "Include revoked tokens.") var all = false
        @Flag(help: "Print a JSON array instead of a table.") var json = false

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let all = self.all
            let tokens = try await CommandEnvironment.database(environment) { client in
                try await PostgresTokenStore(client: client, logger: logger).list(includeRevoked: all)
            }
            if json {
                print(try OutputFormat.json(tokens.map(TokenJSON.init)))
                return
            }
            let formatter = ISO8601DateFormatter()
            let rows = tokens.map { token in
                [token.name, token.role.rawValue, token.hint, formatter.string(from: token.createdAt),
                 token.lastUsedAt.map(formatter.string(from:)) ?? "never", token.expiresAt.map(formatter.string(from:)) ?? "never",
                 token.revokedAt.map(formatter.string(from:)) ?? "-"]
            }
            print(rows.isEmpty ? "no tokens" : OutputFormat.render(header: ["NAME", "ROLE", "TOKEN", "CREATED", "LAST USED", "EXPIRES", "REVOKED"],
                                                                   rows: rows))
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token at once; its console sessions end too.")

        @Argument(help: "The token's name.") var name: String

        func run() async throws {
            let environment = try CommandEnvironment(receiving: false)
            let logger = environment.logger
            let name = self.name
            try await CommandEnvironment.database(environment) { client in
                try await PostgresTokenStore(client: client, logger: logger).revoke(name: name)
            }
            print("token \"\(name)\" revoked")
        }
    }
}
