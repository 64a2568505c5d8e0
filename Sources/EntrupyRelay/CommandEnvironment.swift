import ArgumentParser
import Foundation
import Logging
import RelayApp
import RelayCore
import RelayStore

/// What every subcommand does first: read settings (failing with one clear line), set up
/// logging, and find the migrations.
struct CommandEnvironment {
    let settings: RelaySettings
    let logger: Logger

    init(receiving: Bool) throws {
        let reader = EnvironmentReader(environment: ProcessInfo.processInfo.environment)
        do {
            settings = try RelaySettings(reader: reader, receiving: receiving)
        } catch let error as SettingsError {
            Self.fail(error.description)
        }
        LogBootstrap.bootstrap(level: settings.logLevel, format: reader.string("LOG_FORMAT"))
        var logger = Logger(label: "entrupy-relay")
        logger.logLevel = Logger.Level(rawValue: settings.logLevel.rawValue) ?? .info
        self.logger = logger
    }

    func migrationCatalog() throws -> MigrationCatalog {
        do {
            return try MigrationCatalog.load(directory: MigrationCatalog.locate(configured: settings.migrationsDirectory))
        } catch let error as MigrationError {
            Self.fail(error.description)
        }
    }

    /// Prints `entrupy-relay: <message>` to standard error and exits 1.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("entrupy-relay: \(message)\n".utf8))
        Foundation.exit(1)
    }
}
