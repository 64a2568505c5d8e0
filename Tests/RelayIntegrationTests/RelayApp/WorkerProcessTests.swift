import Foundation
import RelayModel
import Testing

/// Worker replicas as separate processes sharing one database.
@Suite("Worker processes", .timeLimit(.minutes(3)))
struct WorkerProcessTests {
    static func workerEnv(_ sim: TestSimulator, _ extra: [String: String] = [:]) -> [String: String] {
        ["ENTRUPY_RELAY_ENTRUPY_API_URL": sim.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token, "ENTRUPY_RELAY_JOB_POLL_MS": "100",
         "ENTRUPY_RELAY_JOB_BACKOFF_BASE_MS": "100", "ENTRUPY_RELAY_ENTRUPY_API_RATE": "1000", "ENTRUPY_RELAY_WORKER_CONCURRENCY": "8", "ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "0"].merging(extra) { _, new in new }
    }

    @Test func twoWorkerProcessesCreateEachTransitionOnce() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let sim = stack.simulator
            let metricsPort = try await freePort()
            let workers = [
                // With no --host, the operations port listens on the metrics_host setting's address.
                try RelayProcess(["worker", "--port", String(metricsPort)], database: stack.database,
                                 env: Self.workerEnv(sim, ["ENTRUPY_RELAY_METRICS_HOST": "127.0.0.2"])),
                try RelayProcess(["worker"], database: stack.database, env: Self.workerEnv(sim)),
            ]
            var ids: [String] = []
            for n in 0..<12 { ids.append(try await sim.createItem("sku-two-\(n)")) }
            for id in ids { try await sim.setResult(id, "authentic", final: true) }
            for id in ids { try await sim.setFlag(id, "flagged") }
            // Hints repeated by hand as well, so both workers see work for the same items at once.
            for id in ids {
                _ = try await stack.relay.post(WebhookFixture.entrupy(#"{"id":"again-\#(id)","entrupy_id":"\#(id)"}"#))
            }
            #expect(try await eventually(timeout: .seconds(30)) {
                try await stack.count("SELECT count(*) FROM items WHERE flag = 'flagged' AND result = 'authentic'") == 12
            })
            #expect(try await stack.waitForIdleQueue(timeout: .seconds(30)))
            #expect(try await stack.count("""
                SELECT count(*) FROM (SELECT entrupy_id, kind FROM item_events GROUP BY 1, 2 HAVING count(*) > 1) AS repeated
                """) == 0)
            #expect(try await stack.count("SELECT count(*) FROM item_events WHERE kind = 'flag.raised'") == 12)
            #expect(try await stack.count("SELECT count(*) FROM item_events WHERE kind = 'item.created'") == 12)
            // Both replicas did work.
            #expect(try await stack.count("SELECT count(DISTINCT leased_by) FROM jobs WHERE state = 'completed'") == 2)
            // A worker replica can be probed and scraped on its own port.
            let probe = HTTPProbe(port: metricsPort, host: "127.0.0.2")
            #expect(try await probe.status("/readyz") == 200)
            await #expect(throws: (any Error).self) { try await HTTPProbe(port: metricsPort).status("/healthz") }
            let metrics = try await probe.body("/metrics")
            #expect(metrics.contains("relay_jobs_total{"))
            #expect(metrics.contains("relay_entrupy_api_requests_total{"))
            for worker in workers { #expect(await worker.stop() == 0) }
        }
    }

    @Test func aKilledWorkersJobIsFinishedByAnotherSoonAfterItsLease() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let sim = stack.simulator
            // Every API answer takes 4 s, so the job is surely mid-flight when the worker dies.
            try await sim.configure(["latency_ms": .number(4000)])
            let env = Self.workerEnv(sim, ["ENTRUPY_RELAY_JOB_LEASE_SECONDS": "2"])
            let doomed = try RelayProcess(["worker"], database: stack.database, env: env)
            let id = try await sim.createItem("sku-killed")
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM jobs WHERE state = 'running'") == 1 })
            doomed.kill(SIGKILL)
            _ = await doomed.waitForExit()
            #expect(doomed.process.terminationReason == .uncaughtSignal)
            try await sim.configure(["latency_ms": .number(0)])

            let rescuer = try RelayProcess(["worker"], database: stack.database, env: env)
            let killedAt = ContinuousClock.now
            #expect(try await stack.waitFor(id, result: "needs_review", timeout: .seconds(20)))
            // Lease of 2 s, rescued within a second of expiry, then claimed at once: well under 10 s.
            #expect(ContinuousClock.now - killedAt < .seconds(10))
            #expect(try await eventually {
                try await stack.count("SELECT count(*) FROM jobs WHERE state = 'completed' AND attempt = 2 AND errors::text LIKE '%lease expired%'") == 1
            })
            #expect(try await stack.timeline(id) == ["item.created"])
            #expect(await rescuer.stop() == 0)
        }
    }
}
