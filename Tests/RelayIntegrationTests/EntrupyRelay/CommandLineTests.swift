import Foundation
import Testing
import RelayModel

/// Runs the built `entrupy-relay` binary, as an operator would.
@Suite("The entrupy-relay command", .timeLimit(.minutes(3)))
struct CommandLineTests {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func binary() throws -> String {
        if let path = ProcessInfo.processInfo.environment["RELAY_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/debug/entrupy-relay").path
        guard FileManager.default.isExecutableFile(atPath: path) else { throw TestSetupError("build entrupy-relay first (RELAY_BINARY)") }
        return path
    }

    static func environment(_ db: DatabaseURL?, _ extra: [String: String] = [:]) -> [String: String] {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "ENTRUPY_RELAY_LOG_LEVEL": "warning",
                   // Dozens of relays share the suite's PostgreSQL: two connections warmed at start each, not the whole pool.
                   "ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE": "2", "ENTRUPY_RELAY_ENTRUPY_API_VERSION": TestSimulator.suiteAPIVersion]
        if let db {
            env["DATABASE_URL"] = "postgres://\(db.username):\(db.password ?? "")@\(db.host):\(db.port)/\(db.database)?sslmode=disable"
        }
        env.merge(extra) { _, new in new }
        return env
    }

    /// Runs a one-shot command; stdout and stderr are captured separately through files.
    static func run(_ arguments: [String], env: [String: String], executable: String? = nil) async throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable ?? binary())
        process.arguments = arguments
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        let folder = FileManager.default.temporaryDirectory
        let outURL = folder.appendingPathComponent("out-\(UUID().uuidString)"), errURL = folder.appendingPathComponent("err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return Run(status: status, stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    @Test func missingDatabaseURLFailsWithOneClearLine() async throws {
        let result = try await Self.run(["migrate"], env: Self.environment(nil))
        #expect(result.status == 1)
        #expect(result.stderr == "entrupy-relay: ENTRUPY_RELAY_DATABASE_URL is required: set it (or DATABASE_URL) to postgres://user:password@host:5432/database\n")
        let serve = try await Self.run(["serve"], env: Self.environment(nil, ["DATABASE_URL": "postgres://a@b/c"]))
        #expect(serve.status == 1)
        #expect(serve.stderr.hasPrefix("entrupy-relay: ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS is required"))
        let noToken = try await Self.run(["serve"], env: Self.environment(nil, ["DATABASE_URL": "postgres://a@b/c", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "a-secret-0123456789"]))
        #expect(noToken.stderr == "entrupy-relay: ENTRUPY_RELAY_ENTRUPY_API_TOKEN is required: set the organisation's Entrupy API token (or run serve --no-worker)\n")
        let badPort = try await Self.run(["serve", "--no-worker"], env: Self.environment(nil, ["DATABASE_URL": "postgres://a@b/c", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "a-secret-0123456789", "ENTRUPY_RELAY_PORT": "x"]))
        #expect(badPort.stderr == "entrupy-relay: ENTRUPY_RELAY_PORT is invalid: expected a whole number from 0 to 65535, got \"x\"\n")
    }

    /// The binary knows its release, and CHANGELOG.md's newest entry is that release.
    @Test func theVersionIsTheChangelogsNewestRelease() async throws {
        let version = try await Self.run(["--version"], env: Self.environment(nil))
        #expect(version.status == 0)
        #expect(version.stdout == RelayRelease.version + "\n")
        let changelog = try String(contentsOf: TestServerProcess.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## ") }
        #expect(newest?.hasPrefix("## \(RelayRelease.version) ") == true, "\(newest ?? "no release in CHANGELOG.md")")
    }

    @Test func migrateThenEventsListAsJSONAndTable() async throws {
        try await TestDatabase.with(migrated: false) { db async throws in
            let env = Self.environment(db)
            let catalog = try TestDatabase.catalog()
            let dryRun = try await Self.run(["migrate", "--dry-run"], env: env)
            #expect(dryRun.status == 0)
            #expect(dryRun.stdout.hasPrefix("would apply \(catalog.migrations.count) migration(s): 1 webhook_events, 2 jobs,"), "\(dryRun.stdout)")
            let pending = try await Self.run(["migrate", "status"], env: env)
            #expect(pending.status == 0)
            #expect(pending.stdout.hasSuffix("0 applied, \(catalog.migrations.count) pending (this build: \(catalog.latestVersion) migrations)\n"))
            let first = try await Self.run(["migrate"], env: env)
            #expect(first.status == 0)
            #expect(first.stdout == "applied \(catalog.migrations.count) migration(s); database is at version \(catalog.latestVersion)\n")
            let second = try await Self.run(["migrate"], env: env)
            #expect(second.stdout == "database is up to date (version \(catalog.latestVersion))\n")
            let status = try await Self.run(["migrate", "status"], env: env)
            #expect(status.status == 0)
            #expect(status.stdout.hasPrefix("1\tapplied\twebhook_events\n"))
            #expect(status.stdout.hasSuffix("\(catalog.migrations.count) applied, 0 pending (this build: \(catalog.latestVersion) migrations)\n"))
            #expect(try await Self.run(["migrate", "--dry-run"], env: env).stdout.hasSuffix("nothing would be applied\n"))

            try await TestRelay.with(database: db) { relay async throws in
                #expect(try await relay.post(WebhookFixture.entrupy(#"{"id":"cli-1","event":"session.completed","entrupy_id":"ENT-C","customer_item_id":"sku-c"}"#)).status == 200)
                #expect(try await relay.post(WebhookFixture.entrupy("garbage")).status == 200)
            }
            let json = try await Self.run(["events", "list", "--json"], env: env)
            #expect(json.status == 0)
            let array = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(array.count == 2)
            let keys: Set<String> = ["id", "event_type", "event_id", "entrupy_id", "customer_item_id", "state", "duplicates", "received_at"]
            #expect(array.allSatisfy { keys.isSubset(of: Set($0.keys)) })
            #expect(array[0]["state"] as? String == "unparseable")
            #expect(array[0]["entrupy_id"] is NSNull)
            #expect(array[1]["entrupy_id"] as? String == "ENT-C")
            #expect(array[1]["customer_item_id"] as? String == "sku-c")

            let table = try await Self.run(["events", "list", "--limit", "1"], env: env)
            #expect(table.stdout.hasPrefix("ID  RECEIVED"))
            #expect(table.stdout.split(separator: "\n").count == 2)
            let badLimit = try await Self.run(["events", "list", "--limit", "0"], env: env)
            #expect(badLimit.status != 0)
            #expect(badLimit.stderr.contains("--limit must be from 1 to 10000"))
        }
    }

    @Test func sigtermFinishesInFlightRequestsThenExitsZero() async throws {
        try await TestDatabase.with { db async throws in
            let port = try await freePort()
            let process = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: db,
                                           env: ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret])

            let client = HTTPProbe(port: port)
            var ready = false
            for _ in 0..<100 where !ready && process.isRunning {
                ready = (try? await client.status("/readyz")) == 200
                if !ready { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(ready)
            // SIGHUP, as the README says to send after editing rules, does not end a receiver-only process.
            process.kill(SIGHUP)
            try await Task.sleep(for: .milliseconds(300))
            #expect(process.isRunning)
            #expect((try? await client.status("/readyz")) == 200)

            let run = UUID().uuidString
            let accepted = await withTaskGroup(of: Bool.self) { group in
                for n in 0..<60 {
                    // Requests cut off by the shutdown fail fast on the client side (refused connections).
                    group.addTask { (try? await client.post(WebhookFixture.session(n, run: run))) == 200 }
                }
                // SIGTERM once some requests have been stored and others are surely still in flight.
                for _ in 0..<500 {
                    if ((try? await TestDatabase.scalar(db, "SELECT count(*) FROM webhook_events")) ?? 0) >= 3 { break }
                    try? await Task.sleep(for: .milliseconds(10))
                }
                process.kill(SIGTERM)
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(await process.waitForExit() == 0)
            #expect(process.process.terminationReason == .exit)
            #expect(accepted > 0)
            // Every 2xx answer stands for a stored event. (A request whose client gave up, on a
            // loaded machine, may be stored without its answer arriving: the sender retries it and
            // the retry is a duplicate, so more stored than acknowledged loses nothing.)
            let stored = try await TestDatabase.scalar(db, "SELECT count(*) FROM webhook_events")
            #expect(stored >= accepted, "stored \(stored), acknowledged \(accepted)")
        }
    }
}
