import ArgumentParser
import RelayApp
import RelayDatabase
import RelayStore

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the numbered SQL files in migrations/ that the database lacks (safe to run again, and from several replicas)."
    )

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false)
        let catalog = try environment.migrationCatalog()
        let logger = environment.logger
        do {
            let applied = try await DatabaseClientFactory.withClient(environment.settings.database.url, logger: logger) { client in
                try await Migrator(client: client, logger: logger).migrate(catalog)
            }
            print(applied.isEmpty
                ? "database is up to date (version \(catalog.latestVersion))"
                : "applied \(applied.count) migration(s); database is at version \(catalog.latestVersion)")
        } catch let error as MigrationError {
            CommandEnvironment.fail(error.description)
        } catch {
            CommandEnvironment.fail("cannot migrate \(environment.settings.database.url): \(PostgresErrorText.describe(error))")
        }
    }
}
