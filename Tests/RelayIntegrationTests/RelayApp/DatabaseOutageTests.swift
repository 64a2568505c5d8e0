import Foundation
import Testing
import RelayModel

@Suite("Database outages", .timeLimit(.minutes(3)))
struct DatabaseOutageTests {
    @Test func unreachableDatabaseGives503WithRetryAfterAndRecoversByItself() async throws {
        try await TestDatabase.with { db async throws in
            let proxy = try TCPProxy(targetHost: db.host, targetPort: db.port)
            let proxyPort = try await proxy.start()
            var viaProxy = db
            viaProxy.host = "127.0.0.1"
            viaProxy.port = proxyPort
            let proxied = viaProxy
            defer { Task { await proxy.stop() } }

            try await TestRelay.with(database: proxied, env: ["ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS": "3000"]) { relay async throws in
                // Through the proxy (in this process, on its two threads) the pool connects a little later,
                // much later when the whole suite runs: wait until it is ready.
                #expect(try await eventually(timeout: .seconds(60)) { try await relay.request("/readyz").status == 200 })
                // The first store opens connections through the same proxy: on a loaded machine it may
                // outlast the 3 s store timeout once (503, nothing kept); the same event again is fine.
                #expect(try await eventually(timeout: .seconds(60)) { try await relay.post(WebhookFixture.session(1)).status == 200 })

                proxy.setAvailable(false)
                let started = ContinuousClock.now
                let refused = try await relay.post(WebhookFixture.session(2))
                #expect(refused.status == 503)
                #expect(refused.header("Retry-After") == "5")
                #expect((refused.json?["error"] as? [String: Any])?["message"] as? String == "the event could not be stored; retry later")
                #expect(ContinuousClock.now - started < .seconds(10))
                // Readiness is checked at most once a second.
                #expect(try await eventually(timeout: .seconds(5)) { try await relay.request("/readyz").status == 503 })
                #expect(try await relay.request("/healthz").status == 200)

                proxy.setAvailable(true)
                // No restart: the pool reconnects and the same event is accepted on Entrupy's retry.
                var recovered = false
                for _ in 0..<40 where !recovered {
                    recovered = try await relay.post(WebhookFixture.session(2, run: "retry")).status == 200
                    if !recovered { try await Task.sleep(for: .milliseconds(250)) }
                }
                #expect(recovered)
                // Readiness has a one-second deadline per check; on a loaded machine the first checks after
                // the outage can still miss it, so it must become ready soon rather than at once.
                #expect(try await eventually(timeout: .seconds(10)) { try await relay.request("/readyz").status == 200 })
            }
            // Every event answered 2xx is stored, once. The one refused during the outage may be
            // stored too once the database is back (its batch was still waiting for a connection when
            // the request's 3 s ran out): Entrupy's retry of it is then a duplicate. Nothing twice.
            let stored = try await TestDatabase.scalar(db, "SELECT count(*) FROM webhook_events")
            #expect(stored == 2 || stored == 3, "\(stored) events stored")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) - count(DISTINCT dedup_key) FROM webhook_events") == 0)
        }
    }

    @Test func readinessRequiresEveryMigration() async throws {
        let operations = try await freePort()
        try await TestDatabase.with(migrated: false) { db async throws in
            try await TestRelay.with(database: db, env: ["ENTRUPY_RELAY_METRICS_PORT": String(operations)]) { relay async throws in
                let probe = HTTPProbe(port: operations)
                // The check has a one-second deadline, and the pool's first connection can take
                // longer when the machine is busy ("database": "unreachable"); wait until the
                // database has answered, then the migrations must be reported pending.
                var checks: [String: String] = [:]
                var statuses: Set<Int> = []
                let answered = try await eventually {
                    statuses.insert(try await probe.status("/readyz"))
                    let json = try JSONSerialization.jsonObject(with: Data(try await probe.body("/readyz").utf8)) as? [String: Any]
                    checks = json?["checks"] as? [String: String] ?? [:]
                    return checks["database"] == "ok"
                }
                // The public port says only that it is not ready.
                let terse = try await relay.request("/readyz")
                #expect(terse.status == 503 && !terse.body.contains("pending"), "\(terse.body)")
                #expect(answered)
                #expect(statuses == [503])
                #expect(checks["migrations"]?.hasPrefix("pending: 1, 2") == true, "checks: \(checks)")
                // Storing fails (no tables): the sender is told to retry, nothing is lost.
                #expect(try await relay.post(WebhookFixture.session(1)).status == 503)
            }
        }
    }
}
