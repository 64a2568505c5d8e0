import Logging
public import PostgresNIO
import RelayModel
import RelayDatabase

/// Applies numbered migrations, each in its own transaction, under a session advisory lock
/// so that replicas starting together apply each file once. Applied files are recorded with
/// their checksum; a changed file is refused before anything runs.
public struct Migrator: Sendable {
    /// Arbitrary constant shared by every replica: the advisory lock's key.
    static let lockKey: Int64 = 7_361_002_026
    /// How long one migration's statement waits for a lock before the migration is rolled back.
    static let lockTimeout = "5s"

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public struct AppliedMigration: Sendable, Equatable {
        public let version: Int
        public let name: String
        public let checksum: String

        public init(version: Int, name: String, checksum: String) {
            self.version = version
            self.name = name
            self.checksum = checksum
        }
    }

    /// - Returns: the migrations applied by this call (empty when already up to date).
    @discardableResult
    public func migrate(_ catalog: MigrationCatalog) async throws -> [Migration] {
        try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger)
            do {
                let applied = try await apply(catalog, on: connection)
                try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                return applied
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger)
                throw error
            }
        }
    }

    private func apply(_ catalog: MigrationCatalog, on connection: PostgresConnection) async throws -> [Migration] {
        try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version    integer PRIMARY KEY,
                name       text NOT NULL,
                checksum   text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
        let applied = try await appliedMigrations(on: connection)
        try Self.verify(catalog: catalog, applied: applied)

        let done = Set(applied.map(\.version))
        var ran: [Migration] = []
        for migration in catalog.migrations where !done.contains(migration.version) {
            let statements = SQLStatementSplitter.split(migration.sql)
            guard !statements.isEmpty else { throw MigrationError.emptyFile("\(migration.version)_\(migration.name).sql") }
            do {
                try await connection.withTransaction(logger: logger) { tx in
                    // A schema change waits behind a long transaction on its table, and every query
                    // after it waits behind the change: give up after a bounded wait instead (a
                    // file may set its own), and say to run it again when the table is quieter.
                    try await tx.query("SET LOCAL lock_timeout = '\(unescaped: Self.lockTimeout)'", logger: logger)
                    for statement in statements {
                        try await tx.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await tx.query("""
                        INSERT INTO schema_migrations (version, name, checksum)
                        VALUES (\(migration.version), \(migration.name), \(migration.checksum))
                        """, logger: logger)
                }
            } catch {
                var message = PostgresErrorText.describe(error)
                if PostgresErrorText.sqlState(error) == "55P03" {
                    message += "; it waited \(Self.lockTimeout) for a table other sessions were using: run migrate again when they are quieter"
                }
                throw MigrationError.statementFailed(version: migration.version, name: migration.name, message: message)
            }
            logger.info("applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
            ran.append(migration)
        }
        return ran
    }

    /// Refuses when an applied file's checksum differs from this build's, or when the database
    /// has versions this build does not know (applying older files beside them could undo a
    /// newer release's schema, and files placed by someone else must never run).
    static func verify(catalog: MigrationCatalog, applied: [AppliedMigration]) throws {
        let known = Dictionary(uniqueKeysWithValues: catalog.migrations.map { ($0.version, $0) })
        let unknown = Set(applied.map(\.version)).subtracting(known.keys).sorted()
        if !unknown.isEmpty { throw MigrationError.unknownVersions(unknown) }
        for record in applied.sorted(by: { $0.version < $1.version }) {
            if let file = known[record.version], file.checksum != record.checksum {
                throw MigrationError.checksumMismatch(version: record.version, name: record.name)
            }
        }
    }

    /// The versions recorded in the database; empty when `migrate` never ran.
    public func applied() async throws -> [AppliedMigration] {
        try await client.withConnection { try await appliedMigrations(on: $0) }
    }

    private func appliedMigrations(on connection: PostgresConnection) async throws -> [AppliedMigration] {
        let exists = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger)
        var found = false
        for try await value in exists.decode(Bool.self) { found = value }
        guard found else { return [] }
        let rows = try await connection.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version", logger: logger)
        var result: [AppliedMigration] = []
        for try await (version, name, checksum) in rows.decode((Int, String, String).self) {
            result.append(AppliedMigration(version: version, name: name, checksum: checksum))
        }
        return result
    }
}
