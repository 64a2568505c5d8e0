@testable import RelayStore
import Testing

/// What `migrate status` and `migrate --dry-run` read from a catalog and a database's records.
@Suite("Migration status")
struct MigrationStatusTests {
    static let catalog = MigrationCatalog(migrations: [
        Migration(version: 1, name: "first", sql: "SELECT 1;"),
        Migration(version: 2, name: "second", sql: "SELECT 2;"),
        Migration(version: 3, name: "third", sql: "SELECT 3;"),
    ], directory: "(test)")

    static func applied(_ migration: Migration, checksum: String? = nil) -> Migrator.AppliedMigration {
        Migrator.AppliedMigration(version: migration.version, name: migration.name, checksum: checksum ?? migration.checksum)
    }

    @Test func appliedAndPendingInOrder() {
        let status = MigrationStatus(catalog: Self.catalog, applied: [Self.applied(Self.catalog.migrations[0])])
        #expect(status.entries.map(\.state) == [.applied, .pending, .pending])
        #expect(status.pending.map(\.version) == [2, 3])
        #expect(status.refusal == nil)
        #expect(MigrationStatus(catalog: Self.catalog, applied: []).pending.count == 3, "a new database: everything pending")
    }

    @Test func aChangedFileOrANewerReleasesVersionIsRefused() {
        let changed = MigrationStatus(catalog: Self.catalog, applied: [Self.applied(Self.catalog.migrations[0], checksum: "edited")])
        #expect(changed.entries.first?.state == .changed)
        #expect(changed.refusal == .checksumMismatch(version: 1, name: "first"))
        let newer = MigrationStatus(catalog: Self.catalog, applied: Self.catalog.migrations.map { Self.applied($0) }
            + [Migrator.AppliedMigration(version: 4, name: "from_a_newer_release", checksum: "x")])
        #expect(newer.entries.last == MigrationStatus.Entry(version: 4, name: "from_a_newer_release", state: .unknown))
        #expect(newer.refusal == .unknownVersions([4]))
    }
}
