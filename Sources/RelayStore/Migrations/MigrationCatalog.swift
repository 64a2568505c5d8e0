import Foundation
import RelayMigrations

/// The migrations this build knows: compiled in, or read from a directory of `NNNN_name.sql` files.
public struct MigrationCatalog: Sendable {
    public let migrations: [Migration]
    public let directory: String

    public var latestVersion: Int { migrations.last?.version ?? 0 }

    public init(migrations: [Migration], directory: String) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.directory = directory
    }

    /// The migrations compiled into this binary: what `migrate` applies unless ENTRUPY_RELAY_MIGRATIONS_DIR
    /// names a folder. Nothing is read from the file system, so SQL that someone placed near
    /// where an operator runs the command can never be applied.
    public static func embedded() throws -> MigrationCatalog {
        try catalog(embeddedMigrations.map { ($0.file, String(decoding: $0.sql, as: UTF8.self)) }, directory: "(compiled in)")
    }

    /// Loads every `.sql` file of `directory` (ENTRUPY_RELAY_MIGRATIONS_DIR). Other files are ignored; a
    /// `.sql` file with a bad name or a repeated version is an error, so a typo cannot
    /// silently skip a migration.
    public static func load(directory: String) throws -> MigrationCatalog {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        } catch {
            throw MigrationError.directoryNotFound(searched: [directory])
        }
        return try catalog(try names.map { ($0, try String(contentsOfFile: directory + "/" + $0, encoding: .utf8)) }, directory: directory)
    }

    /// The catalog of `(file name, SQL)` pairs, refusing bad names and repeated versions.
    static func catalog(_ files: [(String, String)], directory: String) throws -> MigrationCatalog {
        var seen = Set<Int>()
        var migrations: [Migration] = []
        for (fileName, sql) in files.sorted(by: { $0.0 < $1.0 }) {
            guard let parsed = Migration.parseFileName(fileName) else { throw MigrationError.badFileName(fileName) }
            guard seen.insert(parsed.version).inserted else { throw MigrationError.duplicateVersion(parsed.version) }
            migrations.append(Migration(version: parsed.version, name: parsed.name, sql: sql))
        }
        return MigrationCatalog(migrations: migrations, directory: directory)
    }

    /// The configured folder's migrations when ENTRUPY_RELAY_MIGRATIONS_DIR is set, else the compiled-in ones.
    public static func forSettings(directory: String?) throws -> MigrationCatalog {
        if let directory { return try load(directory: directory) }
        return try embedded()
    }
}
