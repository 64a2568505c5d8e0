import Foundation
import RelayModel
import Testing

/// Issue 27, "also": after PostgreSQL was restarted under load, with reconciles waiting on an
/// Entrupy that did not answer, `serve` took 31.5 s to end after SIGTERM (its watchdog ended it,
/// and a supervisor's 15 s stop timeout would have killed it first). In-flight jobs now get
/// ENTRUPY_RELAY_JOB_SHUTDOWN_DRAIN_SECONDS to finish, then are cancelled and put back without spending an
/// attempt, so SIGTERM ends the process in seconds with exit 0 whatever Entrupy does.
@Suite("SIGTERM ends serve promptly", .timeLimit(.minutes(3)))
struct PromptShutdownTests {
    @Test func afterADatabaseRestartWithEntrupySilent() async throws {
        try await HostileHTTPPeer.with { peer async throws in
            let cluster = try await PrivateCluster.start("pg-shutdown")
            defer { cluster.remove() }
            let url = cluster.url
            let database = try cluster.database
            // Entrupy accepts the connection and never answers; a lookup would wait two minutes for it.
            let env = CommandLineTests.environment(nil, [
                "DATABASE_URL": url, "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
                "ENTRUPY_RELAY_ENTRUPY_API_URL": peer.url("/silent"), "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "t", "ENTRUPY_RELAY_ENTRUPY_API_TIMEOUT_SECONDS": "120",
                "ENTRUPY_RELAY_ENTRUPY_API_RATE": "1000", "ENTRUPY_RELAY_JOB_TIMEOUT_SECONDS": "300", "ENTRUPY_RELAY_JOB_POLL_MS": "100", "ENTRUPY_RELAY_WORKER_CONCURRENCY": "16",
                "ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "0", "ENTRUPY_RELAY_JOB_SHUTDOWN_DRAIN_SECONDS": "3",
            ])
            #expect(try await CommandLineTests.run(["migrate"], env: env).status == 0)
            let port = try await freePort()
            let serve = try RelayProcess(binary: nil, ["serve", "--port", String(port)], env: env)
            let probe = HTTPProbe(port: port)
            #expect(try await eventually(timeout: .seconds(20)) { (try? await probe.status("/readyz")) == 200 })
            for n in 0..<60 {
                _ = try? await probe.post(WebhookFixture.entrupy(#"{"event":"session.completed","id":"stuck-\#(n)","entrupy_id":"ENT-STUCK-\#(n)"}"#))
            }
            let running = "SELECT count(*) FROM jobs WHERE state = 'running'"
            #expect(try await eventually(timeout: .seconds(20)) { try await TestDatabase.scalar(database, running) >= 8 },
                    "reconciles are waiting on Entrupy")

            let crashed = try await cluster.run("crash")
            #expect(crashed.status == 0, "\(crashed.stderr)")
            try await Task.sleep(for: .seconds(2))
            let restarted = try await cluster.run("start")
            #expect(restarted.status == 0, "\(restarted.stderr)")
            #expect(try await eventually(timeout: .seconds(30)) { (try? await probe.status("/readyz")) == 200 })
            // The worker works again: its heartbeat and claims reach the restarted server.
            try await Task.sleep(for: .seconds(2))

            let stopping = ContinuousClock.now
            let status = await serve.stop()
            let took = ContinuousClock.now - stopping
            #expect(status == 0, "\(serve.output.suffix(2_000))")
            // The 3 s drain, then the cancelled runs are recorded: well inside a 15 s supervisor's patience.
            #expect(took < .seconds(12), "SIGTERM took \(took)")
            #expect(!serve.output.contains("did not finish within its grace period"))
            // Nothing was lost or spent: every job the worker held was put back to run again.
            #expect(try await TestDatabase.scalar(database, running) == 0)
            #expect(try await TestDatabase.scalar(database, "SELECT count(*) FROM jobs WHERE state = 'dead'") == 0)
            #expect(try await TestDatabase.scalar(database, "SELECT count(*) FROM webhook_events") == 60)
        }
    }
}
