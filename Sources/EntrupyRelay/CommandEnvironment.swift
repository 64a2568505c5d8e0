import ArgumentParser
import EntrupyAPI
import Foundation
import Logging
import PostgresNIO
import RelayApp
import RelayModel
import RelayRuntime
import RelayDatabase
import RelayRules
import RelayStore

/// What every subcommand does first: read settings (failing with one clear line), set up
/// logging, and find the migrations.
struct CommandEnvironment {
    let settings: RelaySettings
    let logger: Logger

    init(receiving: Bool, reconciling: Bool = false) throws {
        let sources: SettingsSources
        do {
            sources = try SettingsSources.process()
            try sources.checkNames(RelaySettings.catalog)
            settings = try RelaySettings(reader: sources.reader(), receiving: receiving, reconciling: reconciling)
        } catch let error as SettingsError {
            Self.fail(error.description)
        }
        LogBootstrap.bootstrap(level: settings.logLevel, format: settings.logFormat)
        var logger = Logger(label: "entrupy-relay")
        logger.logLevel = settings.logLevel.loggerLevel
        self.logger = logger
        for name in sources.unprefixedNames(RelaySettings.catalog) {
            logger.warning("\(name.given) is set but read no more (since 0.1.0); the relay reads \(name.setting)")
        }
        // libpq's meaning since 0.1.0: these modes encrypt but do not check who answers.
        let database = settings.database.url
        let local = database.host == "localhost" || IPAddress(database.host)?.restrictedScope == "loopback"
        if [.allow, .prefer, .require].contains(database.tlsMode), !local {
            logger.warning("DATABASE_URL's sslmode does not verify the server's certificate (libpq's meaning); verify-full does",
                           metadata: ["sslmode": "\(database.tlsMode.rawValue)", "host": "\(database.host)"])
        }
    }

    func migrationCatalog() throws -> MigrationCatalog {
        do {
            return try MigrationCatalog.forSettings(directory: settings.database.migrationsDirectory)
        } catch let error as MigrationError {
            Self.fail(error.description)
        }
    }

    /// Runs `body` with a database pool; any failure becomes one clear line and exit 1.
    static func database<T: Sendable>(_ environment: CommandEnvironment, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        do {
            return try await DatabaseClientFactory.withClient(environment.settings.database.url, logger: environment.logger, body)
        } catch let error as EntrupyAPIError {
            fail(error.description)
        } catch let error as TokenError {
            fail(error.description)
        } catch let error as BulkRetryTooMany {
            fail(error.description)
        } catch let error as ChangeCursor.Refused {
            fail(error.description)
        } catch {
            fail("\(environment.settings.database.url): \(PostgresErrorText.describe(error))")
        }
    }

    /// Builds what a command runs; a bad setting or rules file becomes its message and exit 1.
    static func assemble<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TracingSetupError {
            fail(error.description)
        } catch let error as SettingsError {
            fail(error.description)
        } catch let error as RuleSetError {
            fail(error.description)
        }
    }

    /// Prints `entrupy-relay: <message>` to standard error and exits 1.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("entrupy-relay: \(message)\n".utf8))
        Foundation.exit(1)
    }
}
