import Foundation
import Testing
@testable import RelayStore

@Suite("Migrations", .timeLimit(.minutes(3)))
struct MigrationTests {
    /// A scratch copy of migrations/ that a test may change.
    func scratchCopy(extra: [String: String] = [:]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("relay-migrations-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let source = TestDatabase.migrationsDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: source) where name.hasSuffix(".sql") {
            try FileManager.default.copyItem(atPath: source + "/" + name, toPath: dir + "/" + name)
        }
        for (name, sql) in extra { try sql.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8) }
        return dir
    }

    @Test func migrateTwiceIsANoOp() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let catalog = try TestDatabase.catalog()
            try await TestDatabase.withClient(db) { client async throws in
                let migrator = Migrator(client: client, logger: TestDatabase.logger)
                let first = try await migrator.migrate(catalog)
                #expect(first.map(\.version) == catalog.migrations.map(\.version))
                let second = try await migrator.migrate(catalog)
                #expect(second.isEmpty)
                #expect(try await migrator.applied().map(\.checksum) == catalog.migrations.map(\.checksum))
            }
        }
    }

    @Test func replicasMigratingAtOnceApplyEachFileOnce() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let catalog = try TestDatabase.catalog()
            let applied = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await TestDatabase.withClient(db) { client async throws in
                            try await Migrator(client: client, logger: TestDatabase.logger).migrate(catalog).count
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(applied == catalog.migrations.count)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM schema_migrations") == catalog.migrations.count)
        }
    }

    @Test func aChangedAppliedFileIsRefused() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let dir = try scratchCopy()
            try await TestDatabase.withClient(db) { client async throws in
                let migrator = Migrator(client: client, logger: TestDatabase.logger)
                try await migrator.migrate(try MigrationCatalog.load(directory: dir))
                let path = dir + "/0002_jobs.sql"
                try (try String(contentsOfFile: path, encoding: .utf8) + "\n-- edited after release\n").write(toFile: path, atomically: true, encoding: .utf8)
                await #expect(throws: MigrationError.checksumMismatch(version: 2, name: "jobs")) {
                    try await migrator.migrate(try MigrationCatalog.load(directory: dir))
                }
            }
        }
    }

    @Test func aFailingMigrationIsRolledBackWhole() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let dir = try scratchCopy(extra: ["0099_broken.sql": "CREATE TABLE half_done (id int);\nSELECT no_such_function();\n"])
            try await TestDatabase.withClient(db) { client async throws in
                let migrator = Migrator(client: client, logger: TestDatabase.logger)
                do {
                    try await migrator.migrate(try MigrationCatalog.load(directory: dir))
                    Issue.record("the broken migration should fail")
                } catch let error as MigrationError {
                    guard case .statementFailed(let version, let name, let message) = error else { Issue.record("\(error)"); return }
                    #expect(version == 99 && name == "broken")
                    #expect(message.contains("no_such_function"))
                }
                #expect(try await migrator.applied().map(\.version) == TestDatabase.catalog().migrations.map(\.version))
            }
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM pg_tables WHERE tablename = 'half_done'") == 0)
        }
    }

    /// A schema change behind a busy table gives up after a bounded wait, rolled back, saying so,
    /// instead of queueing every query on the table behind it.
    @Test func aMigrationWaitingForALockGivesUp() async throws {
        try await TestDatabase.with(migrated: true) { db async throws in
            let dir = try scratchCopy(extra: ["0099_busy.sql": "ALTER TABLE items ADD COLUMN waited boolean;\n"])
            try await TestDatabase.withClient(db) { holder async throws in
                try await holder.withConnection { connection in
                    try await connection.query("BEGIN", logger: TestDatabase.logger)
                    try await connection.query("LOCK TABLE items IN ACCESS SHARE MODE", logger: TestDatabase.logger)
                    try await TestDatabase.withClient(db) { client async throws in
                        let started = ContinuousClock.now
                        do {
                            try await Migrator(client: client, logger: TestDatabase.logger).migrate(try MigrationCatalog.load(directory: dir))
                            Issue.record("the migration should give up")
                        } catch let error as MigrationError {
                            #expect("\(error)".contains("run migrate again"), "\(error)")
                        }
                        #expect(ContinuousClock.now - started < .seconds(60))
                    }
                    try await connection.query("ROLLBACK", logger: TestDatabase.logger)
                }
            }
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM information_schema.columns WHERE table_name = 'items' AND column_name = 'waited'") == 0)
        }
    }

    @Test func badFileNamesAndDuplicateVersionsAreRefused() throws {
        let badName = try scratchCopy(extra: ["990_missing_padding_is_fine.sql": "SELECT 1;", "oops.sql": "SELECT 1;"])
        #expect(throws: MigrationError.badFileName("oops.sql")) { try MigrationCatalog.load(directory: badName) }
        let duplicate = try scratchCopy(extra: ["0001_again.sql": "SELECT 1;"])
        #expect(throws: MigrationError.duplicateVersion(1)) { try MigrationCatalog.load(directory: duplicate) }
    }
}
