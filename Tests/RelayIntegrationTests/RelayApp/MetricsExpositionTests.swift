import Foundation
import RelayRuntime
import Testing

/// `/metrics` of a real `serve` and `worker`: every family is in the metric catalog, with its
/// meaning as HELP and its type, and Prometheus's linter has nothing to say about it.
@Suite("Metrics exposition", .timeLimit(.minutes(2)))
struct MetricsExpositionTests {
    @Test func serveAndWorkerExposeOnlyTheCatalogAndPromtoolHasNothingToSay() async throws {
        try await TestDatabase.with { db async throws in
            let servePort = try await freePort(), workerPort = try await freePort()
            try await TestSimulator.with(webhookURL: "http://127.0.0.1:\(servePort)/webhooks/entrupy") { sim async throws in
                let env = WorkerProcessTests.workerEnv(sim, ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret])
                let serve = try RelayProcess(["serve", "--no-worker", "--port", String(servePort)], database: db, env: env)
                let worker = try RelayProcess(["worker", "--port", String(workerPort)], database: db, env: env)
                for port in [servePort, workerPort] {
                    #expect(try await eventually(timeout: .seconds(30)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
                }
                // Traffic, so the families made on first use show too: a webhook reconciled, one refused.
                _ = try await sim.createItem("sku-metrics")
                #expect(try await HTTPProbe(port: servePort).post(WebhookFixture.entrupy(#"{"id":"x"}"#, secret: "wrong")) == 401)
                #expect(try await eventually(timeout: .seconds(30)) {
                    try await HTTPProbe(port: workerPort).body("/metrics").contains("relay_reconcile_total{")
                })
                let serveText = try await HTTPProbe(port: servePort).body("/metrics")
                let workerText = try await HTTPProbe(port: workerPort).body("/metrics")
                #expect(serveText.contains("relay_webhook_requests_total{outcome=\"accepted\"}"))
                #expect(serveText.contains("hb_requests_total{"))
                #expect(!serveText.contains("hb_requests{"))
                for (role, text) in [("serve", serveText), ("worker", workerText)] {
                    try await Self.check(text, role: role)
                }
                #expect(await serve.stop() == 0)
                #expect(await worker.stop() == 0)
            }
        }
    }

    static func check(_ text: String, role: String) async throws {
        let exposition = MetricsExposition(text)
        #expect(exposition.sampled.contains("relay_build_info"), "\(role)")
        for family in exposition.sampled.sorted() {
            guard let metric = RelayMetric.named(family) else {
                Issue.record("\(role) emits \(family), which is not in RelayMetric.catalog")
                continue
            }
            #expect(exposition.types[family] == metric.kind.prometheusType, "\(role): \(family)")
            #expect(exposition.helps[family] == metric.meaning, "\(role): \(family)")
        }
        guard let promtool = Promtool.path else {
            // deploy/lib/test-tools.sh provides it wherever the suite runs through deploy/local.sh.
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("promtool is missing: run deploy/lib/test-tools.sh") }
            return
        }
        let lint = try await Promtool.checkMetrics(text, promtool: promtool)
        #expect(lint.said == "", "\(role): promtool check metrics says \(lint.said)")
        #expect(lint.status == 0, "\(role)")
    }
}
