import ArgumentParser
import RelayApp
import RelayDatabase
import RelayStore

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the numbered SQL files in migrations/ that the database lacks (safe to run again, and from several replicas).",
        subcommands: [MigrateStatusCommand.self]
    )

    @Flag(help: "Print the migrations that would be applied, and apply nothing.")
    var dryRun = false

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false)
        let catalog = try environment.migrationCatalog()
        let logger = environment.logger
        do {
            try await DatabaseClientFactory.withClient(environment.settings.database.url, logger: logger) { client in
                let migrator = Migrator(client: client, logger: logger)
                if dryRun {
                    let status = MigrationStatus(catalog: catalog, applied: try await migrator.applied())
                    if let refusal = status.refusal { throw refusal }
                    print(status.pending.isEmpty
                        ? "database is up to date (version \(catalog.latestVersion)); nothing would be applied"
                        : "would apply \(status.pending.count) migration(s): "
                            + status.pending.map { "\($0.version) \($0.name)" }.joined(separator: ", "))
                    return
                }
                let applied = try await migrator.migrate(catalog)
                print(applied.isEmpty
                    ? "database is up to date (version \(catalog.latestVersion))"
                    : "applied \(applied.count) migration(s); database is at version \(catalog.latestVersion)")
                // After a restore from a dump: transitions the change feed could not serve yet.
                let renumbered = try await PostgresChangeFeed(client: client, logger: logger).renumberRestored()
                if renumbered > 0 {
                    print("change feed: \(renumbered) transition(s) written under another cluster's transaction IDs now come first")
                }
            }
        } catch let error as MigrationError {
            CommandEnvironment.fail(error.description)
        } catch {
            CommandEnvironment.fail("cannot migrate \(environment.settings.database.url): \(PostgresErrorText.describe(error))")
        }
    }
}

struct MigrateStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List every migration of this build and of the database: applied, pending, changed or unknown. Exits 1 when migrate would refuse."
    )

    func run() async throws {
        let environment = try CommandEnvironment(receiving: false)
        let catalog = try environment.migrationCatalog()
        let logger = environment.logger
        let status: MigrationStatus
        do {
            status = try await DatabaseClientFactory.withClient(environment.settings.database.url, logger: logger) { client in
                MigrationStatus(catalog: catalog, applied: try await Migrator(client: client, logger: logger).applied())
            }
        } catch {
            CommandEnvironment.fail("cannot read the migrations of \(environment.settings.database.url): \(PostgresErrorText.describe(error))")
        }
        for entry in status.entries {
            print("\(entry.version)\t\(entry.state.rawValue)\t\(entry.name)")
        }
        let applied = status.entries.filter { $0.state == .applied }.count
        print("\(applied) applied, \(status.pending.count) pending (this build: \(catalog.latestVersion) migrations)")
        if let refusal = status.refusal { CommandEnvironment.fail(refusal.description) }
    }
}
