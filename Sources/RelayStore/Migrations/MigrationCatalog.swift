import Foundation

/// The migrations this build knows, read from a directory of `NNNN_name.sql` files.
public struct MigrationCatalog: Sendable {
    public let migrations: [Migration]
    public let directory: String

    public var latestVersion: Int { migrations.last?.version ?? 0 }

    public init(migrations: [Migration], directory: String) {
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.directory = directory
    }

    /// Loads every `.sql` file of `directory`. Other files are ignored; a `.sql` file with a
    /// bad name or a repeated version is an error, so a typo cannot silently skip a migration.
    public static func load(directory: String) throws -> MigrationCatalog {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".sql") }
        var seen = Set<Int>()
        var migrations: [Migration] = []
        for fileName in names.sorted() {
            guard let parsed = Migration.parseFileName(fileName) else { throw MigrationError.badFileName(fileName) }
            guard seen.insert(parsed.version).inserted else { throw MigrationError.duplicateVersion(parsed.version) }
            let sql = try String(contentsOfFile: directory + "/" + fileName, encoding: .utf8)
            migrations.append(Migration(version: parsed.version, name: parsed.name, sql: sql))
        }
        return MigrationCatalog(migrations: migrations, directory: directory)
    }

    /// Finds the directory: the configured one, else a `migrations` folder beside or above the
    /// executable (so `.build/debug/entrupy-relay` finds its own checkout's), and only then
    /// `./migrations`: a binary run from another project's folder must not apply that
    /// project's SQL.
    public static func locate(configured: String?, executablePath: String = CommandLine.arguments.first ?? "") throws -> String {
        if let configured { return configured }
        var candidates: [String] = []
        var folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("migrations").path)
            folder.deleteLastPathComponent()
        }
        candidates.append(FileManager.default.currentDirectoryPath + "/migrations")
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
        }
        throw MigrationError.directoryNotFound(searched: candidates)
    }
}
