import Foundation
import Logging
import PostgresNIO
import RelayApp
import RelayModel
import RelayStore

/// A fresh, private database per test, created on the PostgreSQL server that
/// `./deploy/local.sh test` started (TEST_DATABASE_URL), and dropped afterwards.
/// Tests therefore run in parallel without seeing each other's rows.
struct TestDatabase {
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    static func adminURL() throws -> DatabaseURL {
        guard let text = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"] else {
            throw TestSetupError("TEST_DATABASE_URL is not set: run the suite with ./deploy/local.sh test")
        }
        return try DatabaseURL(parsing: text)
    }

    /// The repository's migrations/ folder (the files the binary compiles in).
    static func migrationsDirectory() -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("migrations").path
    }

    /// The migrations compiled into the relay (what `migrate` applies).
    static func catalog() throws -> MigrationCatalog {
        try MigrationCatalog.embedded()
    }

    /// Runs `body` with the URL of a new empty database (migrated unless `migrated` is false).
    static func with<T: Sendable>(
        migrated: Bool = true,
        _ body: @escaping @Sendable (DatabaseURL) async throws -> T
    ) async throws -> T {
        let admin = try adminURL()
        let name = "relay_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        try await DatabaseClientFactory.withClient(admin, logger: logger) { client in
            try await client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\""), logger: logger)
        }
        var url = admin
        url.database = String(name)
        do {
            if migrated {
                let catalog = try catalog()
                try await withClient(url) { client in
                    try await Migrator(client: client, logger: logger).migrate(catalog)
                }
            }
            let result = try await body(url)
            try await drop(String(name), admin: admin)
            return result
        } catch {
            try? await drop(String(name), admin: admin)
            throw error
        }
    }

    static func drop(_ name: String, admin: DatabaseURL) async throws {
        try await DatabaseClientFactory.withClient(admin, logger: logger) { client in
            try await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)"), logger: logger)
        }
    }

    @discardableResult
    static func withClient<T: Sendable>(_ url: DatabaseURL, _ body: @escaping @Sendable (PostgresClient) async throws -> T) async throws -> T {
        try await DatabaseClientFactory.withClient(url, logger: logger, body)
    }

    /// A new migrated database and a client on it for the length of `body`: the fixture most
    /// store and queue tests start from, in one `with` instead of two nested ones.
    static func withFresh<T: Sendable>(_ body: @escaping @Sendable (DatabaseURL, PostgresClient) async throws -> T) async throws -> T {
        try await with { db async throws in
            try await withClient(db) { client async throws in try await body(db, client) }
        }
    }

    /// Waits (up to 10 s) until one session of the database waits on a lock: a statement
    /// racing an uncommitted transaction has reached its row. False if none did.
    static func aSessionWaitsOnALock(_ url: DatabaseURL) async throws -> Bool {
        try await eventually(timeout: .seconds(10)) {
            try await scalar(url, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'") == 1
        }
    }

    /// Runs one statement of test set-up.
    static func execute(_ url: DatabaseURL, _ sql: String) async throws {
        try await withClient(url) { client in
            try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
    }

    /// A single integer from a query such as `SELECT count(*) FROM jobs`.
    static func scalar(_ url: DatabaseURL, _ sql: String) async throws -> Int {
        try await withClient(url) { client in
            let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            for try await value in rows.decode(Int.self) { return value }
            throw TestSetupError("no row for \(sql)")
        }
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
