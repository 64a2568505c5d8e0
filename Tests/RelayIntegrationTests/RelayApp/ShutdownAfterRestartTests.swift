import Foundation
import RelayModel
import Testing

/// Issue 42, "also": after PostgreSQL was stopped and started under a backlog of reconciles that
/// fail fast (Entrupy refuses connections), SIGTERM left `serve` silent for 25 s, then the pool
/// was closed while the worker's finish batcher still held records ("recording finished jobs
/// failed; trying again … cannot connect"), and the watchdog ended the process at 30 s with exit
/// code 1. Now every service that writes stops (flushing, or giving up within a bound) before
/// the pools close, and in-flight work is abandoned promptly: SIGTERM ends it in seconds, exit 0.
@Suite("SIGTERM after a database restart", .timeLimit(.minutes(3)))
struct ShutdownAfterRestartTests {
    @Test func entrupyRefusingConnections() async throws {
        let cluster = try await PrivateCluster.start("pg-restart-shutdown")
        defer { cluster.remove() }
        let url = cluster.url
        let database = try cluster.database
        // Nothing listens there: every call to Entrupy is refused at once.
        let closed = try await freePort()
        // Otherwise the defaults, as it was reproduced: the sync by search runs too (its first pass at start).
        let env = CommandLineTests.environment(nil, [
            "DATABASE_URL": url, "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_LOG_LEVEL": "info",
            "ENTRUPY_RELAY_ENTRUPY_API_URL": "http://127.0.0.1:\(closed)", "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "t",
        ])
        #expect(try await CommandLineTests.run(["migrate"], env: env).status == 0)
        let port = try await freePort()
        let serve = try RelayProcess(binary: nil, ["serve", "--port", String(port)], env: env)
        let probe = HTTPProbe(port: port)
        #expect(try await eventually(timeout: .seconds(20)) { (try? await probe.status("/readyz")) == 200 })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<4 {
                group.addTask {
                    for n in stride(from: lane, to: 300, by: 4) {
                        _ = try? await probe.post(WebhookFixture.entrupy(#"{"event":"session.completed","id":"refused-\#(n)","entrupy_id":"ENT-REFUSED-\#(n)"}"#))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await TestDatabase.scalar(database, "SELECT count(*) FROM webhook_events") == 300)
        let failed = "SELECT count(*) FROM jobs WHERE attempt > 0 AND state <> 'running'"
        #expect(try await eventually(timeout: .seconds(20)) { try await TestDatabase.scalar(database, failed) >= 16 },
                "reconciles have failed on the refused connection")

        let stopped = try await cluster.run("halt")
        #expect(stopped.status == 0, "\(stopped.stderr)")
        try await Task.sleep(for: .seconds(10))
        let restarted = try await cluster.run("start")
        #expect(restarted.status == 0, "\(restarted.stderr)")
        #expect(try await eventually(timeout: .seconds(30)) { (try? await probe.status("/readyz")) == 200 })
        // The worker works again: its claims and records reach the restarted server.
        try await Task.sleep(for: .seconds(2))

        let stopping = ContinuousClock.now
        serve.kill(SIGTERM)
        let status = await serve.waitForExit()
        let took = ContinuousClock.now - stopping
        let output = serve.output
        #expect(status == 0, "\(output.suffix(4_000))")
        #expect(took < .seconds(10), "SIGTERM took \(took): \(output.suffix(4_000))")
        #expect(!output.contains("grace period"), "\(output.suffix(4_000))")
        #expect(!output.contains("recording finished jobs failed"), "\(output.suffix(4_000))")
        // Nothing was lost: no job is left running past its worker (what was dropped waits for its lease).
        #expect(try await TestDatabase.scalar(database, "SELECT count(*) FROM jobs WHERE state = 'dead'") == 0)
    }
}
