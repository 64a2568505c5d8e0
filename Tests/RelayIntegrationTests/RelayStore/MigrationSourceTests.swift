import Foundation
import RelayStore
import Testing

/// `migrate` applies the SQL compiled into the binary, never files found near where it runs,
/// and stops on a database that a newer (or unknown) release migrated.
@Suite("Where migrations come from", .timeLimit(.minutes(3)))
struct MigrationSourceTests {
    @Test func theCompiledCatalogIsEveryFileOfTheFolder() throws {
        let compiled = try MigrationCatalog.embedded()
        let folder = try MigrationCatalog.load(directory: TestDatabase.migrationsDirectory())
        #expect(compiled.migrations == folder.migrations, "EmbeddedMigrations.swift must list every file of migrations/")
        #expect(compiled.latestVersion >= 19)
    }

    /// Run from `PATH` (argv[0] is a bare name) in a folder holding a planted `migrations/`:
    /// c765048 looked beside argv[0], that is in the working directory, and applied the planted
    /// file (an admin token for an attacker) and none of the real ones.
    @Test func aPlantedFolderBesideTheWorkingDirectoryIsNeverRead() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("planted-\(UUID().uuidString)")
            let planted = folder.appendingPathComponent("migrations")
            try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data("CREATE TABLE planted_by_attacker (id int);\n".utf8).write(to: planted.appendingPathComponent("0001_evil.sql"))
            let binary = try CommandLineTests.binary()
            var env = CommandLineTests.environment(db)
            env["PATH"] = URL(fileURLWithPath: binary).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
            let result = try await Self.runFromPath(["migrate"], env: env, in: folder)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM pg_tables WHERE tablename = 'planted_by_attacker'") == 0)
            #expect(try await TestDatabase.scalar(db, "SELECT max(version) FROM schema_migrations") == (try MigrationCatalog.embedded().latestVersion))
        }
    }

    @Test func anUnknownAppliedVersionStopsMigrate() async throws {
        try await TestDatabase.with { db async throws in
            try await TestDatabase.execute(db, "INSERT INTO schema_migrations (version, name, checksum) VALUES (9999, 'from_the_future', 'x')")
            let result = try await CommandLineTests.run(["migrate"], env: CommandLineTests.environment(db))
            #expect(result.status == 1)
            #expect(result.stderr.contains("the database has migration(s) 9999 that this build does not know"), "\(result.stderr)")
            // status names it and exits 1; a dry run refuses as migrate would.
            let status = try await CommandLineTests.run(["migrate", "status"], env: CommandLineTests.environment(db))
            #expect(status.status == 1)
            #expect(status.stdout.contains("9999\tunknown\tfrom_the_future\n"))
            #expect(status.stderr.contains("9999 that this build does not know"))
            let dryRun = try await CommandLineTests.run(["migrate", "--dry-run"], env: CommandLineTests.environment(db))
            #expect(dryRun.status == 1)
            #expect(dryRun.stderr.contains("9999 that this build does not know"))
        }
    }

    /// Runs `entrupy-relay` by its bare name through `PATH`, in `folder`, as an operator's shell would.
    static func runFromPath(_ arguments: [String], env: [String: String], in folder: URL) async throws -> CommandLineTests.Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "cd \"$1\" && shift && exec entrupy-relay \"$@\"", "sh", folder.path] + arguments
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return CommandLineTests.Run(status: status, stdout: "", stderr: stderr)
    }
}
