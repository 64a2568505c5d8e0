/// Where each migration stands between this build and a database: what `migrate status`
/// prints and `migrate --dry-run` would apply. Pure: built from the catalog and the records.
public struct MigrationStatus: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        case applied
        /// In this build, not yet in the database: `migrate` applies it.
        case pending
        /// Applied, but this build's file differs: `migrate` refuses to run.
        case changed
        /// In the database, not in this build (a newer release applied it): `migrate` refuses to run.
        case unknown
    }

    public struct Entry: Sendable, Equatable {
        public let version: Int
        public let name: String
        public let state: State
    }

    public let entries: [Entry]

    public init(catalog: MigrationCatalog, applied: [Migrator.AppliedMigration]) {
        let records = Dictionary(applied.map { ($0.version, $0) }, uniquingKeysWith: { first, _ in first })
        let known = Set(catalog.migrations.map(\.version))
        var entries = catalog.migrations.map { migration -> Entry in
            guard let record = records[migration.version] else { return Entry(version: migration.version, name: migration.name, state: .pending) }
            return Entry(version: migration.version, name: migration.name, state: record.checksum == migration.checksum ? .applied : .changed)
        }
        entries += applied.filter { !known.contains($0.version) }.map { Entry(version: $0.version, name: $0.name, state: .unknown) }
        self.entries = entries.sorted { $0.version < $1.version }
    }

    public var pending: [Entry] { entries.filter { $0.state == .pending } }

    /// Why `migrate` would refuse, if it would.
    public var refusal: MigrationError? {
        let unknown = entries.filter { $0.state == .unknown }.map(\.version)
        if !unknown.isEmpty { return .unknownVersions(unknown) }
        if let changed = entries.first(where: { $0.state == .changed }) { return .checksumMismatch(version: changed.version, name: changed.name) }
        return nil
    }
}
