import Foundation
import Testing

/// The shipped alerting rules and dashboard on a real Prometheus scraping a real `serve` (its
/// operations port) and a real `worker --port`: both targets up, every rule evaluating without
/// error, every dashboard query accepted, and RelayTargetBreakerOpen going from absent to firing
/// when a partner's endpoint fails.
@Suite("Prometheus with the shipped alerts", .timeLimit(.minutes(3)))
struct PrometheusAlertTests {
    /// deploy/prometheus/alerts.yml with every `for:` shortened to 1 s (the rule's expression
    /// and labels are the shipped ones): the shipped 5 minutes of an open breaker would not fit
    /// a test; promtool's unit tests (alerts.test.yml) check the durations themselves.
    static func rulesWithShortDurations() throws -> String {
        let shipped = try String(contentsOf: TestServerProcess.root.appendingPathComponent("deploy/prometheus/alerts.yml"), encoding: .utf8)
        return shipped.replacing(/(?m)^(\s+)for: [0-9]+[smh]$/) { "\($0.1)for: 1s" }
    }

    static func dashboardQueries() throws -> [String] {
        let data = try Data(contentsOf: TestServerProcess.root.appendingPathComponent("deploy/grafana/entrupy-relay.json"))
        let panels = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["panels"] as? [[String: Any]] ?? []
        return panels.flatMap { ($0["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String } }
    }

    @Test func aFailingPartnerFiresRelayTargetBreakerOpen() async throws {
        let rules = try Self.rulesWithShortDurations()
        #expect(rules.contains("alert: RelayTargetBreakerOpen") && !rules.contains("for: 5m"))
        try await TestCallbackServer.with { callbacks in
            try await TestDatabase.with { db async throws in
                let servePort = try await freePort(), opsPort = try await freePort(), workerPort = try await freePort()
                try await TestSimulator.with(webhookURL: "http://127.0.0.1:\(servePort)/webhooks/entrupy") { sim async throws in
                    try callbacks.setDown(true)
                    let env = try NotifyEnvironment.make(rules: HeldTargetsTests.rules(callbacks), schedule: Array(repeating: "300ms", count: 40).joined(separator: ","),
                                                         extra: WorkerProcessTests.workerEnv(sim, HeldTargetsTests.breakerEnv.merging(
                                                             ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret]) { _, new in new }))
                    let serve = try RelayProcess(["serve", "--no-worker", "--port", String(servePort)], database: db,
                                                 env: env.merging(["ENTRUPY_RELAY_METRICS_PORT": String(opsPort)]) { _, new in new })
                    let worker = try RelayProcess(["worker", "--port", String(workerPort)], database: db, env: env)
                    for port in [opsPort, workerPort] {
                        #expect(try await eventually(timeout: .seconds(30)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
                    }
                    try await TestPrometheus.with(scrape: ["entrupy-relay": ["127.0.0.1:\(opsPort)"], "entrupy-relay-worker": ["127.0.0.1:\(workerPort)"]],
                                                  rules: rules) { prometheus async throws in
                        try await Self.observe(prometheus, sim: sim)
                    }
                    #expect(await serve.stop() == 0)
                    #expect(await worker.stop() == 0)
                }
            }
        }
    }

    static func observe(_ prometheus: TestPrometheus, sim: TestSimulator) async throws {
        // Both processes scraped; nothing open yet.
        let up = try await eventually(timeout: .seconds(20)) {
            let targets = try await prometheus.targets()
            return targets.count == 2 && targets.allSatisfy { $0.health == "up" }
        }
        let targets = try await prometheus.targets()
        #expect(up, "targets: \(targets)")
        #expect(Set(targets.map(\.job)) == ["entrupy-relay", "entrupy-relay-worker"])
        #expect(try await prometheus.query(#"up{job=~"entrupy-relay|entrupy-relay-worker"} == 1"#).count == 2)
        #expect(try await prometheus.alerts().filter { $0.name == "RelayTargetBreakerOpen" }.isEmpty)
        // Every shipped rule loaded and evaluates without error on what the relay exposes.
        let evaluated = try await eventually(timeout: .seconds(10), every: .milliseconds(500)) {
            let rules = try await prometheus.rules()
            return rules.count >= 13 && rules.allSatisfy { $0.health == "ok" }
        }
        let rules = try await prometheus.rules()
        #expect(evaluated, "\(rules.filter { $0.health != "ok" })")
        #expect(rules.count == (try Self.rulesWithShortDurations()).components(separatedBy: "- alert: ").count - 1)
        // Prometheus parses and runs every query of the dashboard.
        let queries = try dashboardQueries()
        #expect(queries.count >= 20)
        for query in queries {
            do { _ = try await prometheus.query(query) } catch { Issue.record("the dashboard's \(query): \(error)") }
        }

        // Final results whose callbacks fail: the breaker opens, the worker's gauge says 1, the alert fires.
        for n in 0..<5 { _ = try await sim.createItem("sku-prometheus-\(n)", result: "authentic", final: true) }
        let fired = try await eventually(timeout: .seconds(60), every: .milliseconds(500)) {
            try await prometheus.alerts().contains { $0.name == "RelayTargetBreakerOpen" && $0.state == "firing" }
        }
        let alerts = try await prometheus.alerts()
        #expect(fired, "alerts: \(alerts)")
        let alert = alerts.first { $0.name == "RelayTargetBreakerOpen" }
        #expect(alert?.labels["severity"] == "warning")
        #expect(alert?.labels["target"]?.contains("127.0.0.1") == true, "\(alert?.labels ?? [:])")
    }
}
