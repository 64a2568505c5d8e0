import Foundation
import RelayModel
import Testing

/// Answers are ordered by the database's clock, so replicas whose wall clocks disagree by
/// hours still keep the newer state (issue 11).
@Suite("Replicas with skewed clocks", .timeLimit(.minutes(3)))
struct ClockSkewTests {
    /// Builds `deploy/test-servers/clock_skew.c` (a preload that moves the wall clock only) with
    /// the C compiler on the PATH (Swift's own clang, or cc).
    static func clockSkewLibrary() async throws -> String {
        let source = TestServerProcess.root.appendingPathComponent("deploy/test-servers/clock_skew.c").path
        let output = try TestServerProcess.temporaryDirectory("skew").appendingPathComponent("clock_skew.so").path
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compilers = path.split(separator: ":").flatMap { ["\($0)/clang", "\($0)/cc"] } + ["/usr/bin/cc"]
        guard let compiler = compilers.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw TestSetupError("no C compiler (clang or cc) on the PATH to build clock_skew.c")
        }
        let build = try await CommandLineTests.run(["-shared", "-fPIC", "-O2", "-o", output, source, "-ldl"],
                                                   env: ["PATH": path], executable: compiler)
        guard build.status == 0 else { throw TestSetupError("clock_skew.c did not build: \(build.stderr)") }
        return output
    }

    static func worker(_ stack: ReconcileStack, library: String, skewSeconds: Int) throws -> RelayProcess {
        try RelayProcess(["worker"], database: stack.database, env: WorkerProcessTests.workerEnv(stack.simulator, [
            "ENTRUPY_RELAY_LOG_LEVEL": "info", "LD_PRELOAD": library, "RELAY_TEST_CLOCK_SKEW_SECONDS": String(skewSeconds),
        ]))
    }

    /// Whether the process logged with a clock `skew` seconds off (within five minutes).
    static func loggedWithSkew(_ output: String, _ skew: TimeInterval) -> Bool {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let stamps = output.components(separatedBy: "\"ts\":\"").dropFirst().compactMap { formatter.date(from: String($0.prefix(24))) }
        return !stamps.isEmpty && stamps.allSatisfy { abs($0.timeIntervalSinceNow - skew) < 300 }
    }

    @Test func aReplicaAnHourBehindStillStoresNewerState() async throws {
        let library = try await Self.clockSkewLibrary()
        try await ReconcileStack.with(worker: false) { stack async throws in
            let sim = stack.simulator
            let id = try await sim.createItem("sku-skew")
            // A replica an hour ahead stores the first state.
            let ahead = try Self.worker(stack, library: library, skewSeconds: 3600)
            #expect(try await stack.waitFor(id, result: "needs_review", timeout: .seconds(30)))
            #expect(try await stack.waitForIdleQueue())
            #expect(await ahead.stop() == 0)
            #expect(Self.loggedWithSkew(ahead.output, 3600), "the replica's clock was not an hour ahead")

            // One an hour behind fetches the change: by its own clock the stored state is two hours newer.
            try await sim.setResult(id, "authentic", final: true)
            let behind = try Self.worker(stack, library: library, skewSeconds: -3600)
            #expect(try await stack.waitFor(id, result: "authentic", timeout: .seconds(30)))
            #expect(try await stack.waitForIdleQueue())
            #expect(await behind.stop() == 0)
            #expect(Self.loggedWithSkew(behind.output, -3600), "the replica's clock was not an hour behind")
            #expect(try await stack.timeline(id) == ["item.created", "result.changed", "result.final"])
            #expect(try await stack.count("SELECT count(*) FROM reconciliations WHERE outcome = 'stale'") == 0)
            // What was stored carries the database's time, not either replica's.
            #expect(try await stack.count("SELECT count(*) FROM items WHERE abs(extract(epoch FROM now() - fetched_at)) < 600") == 1)
        }
    }
}
