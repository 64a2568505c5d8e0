import Foundation
import RelayModel
import Testing

/// One trace from a webhook to its callback, exported over OTLP/HTTP to a real receiver that
/// decodes it: the receiver's span, the store, the reconcile job (continued from the context
/// the job carried through PostgreSQL), the Entrupy fetch, the rules, the deliver job, the
/// attempt, and the partner's `traceparent`, each the child of the one before.
@Suite("Tracing", .timeLimit(.minutes(3)))
struct TracingTests {
    static let rules = """
        rules:
          - name: partner
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "URL", secret: "${CALLBACK_SECRET}"}
        """

    @Test func oneTraceCrossesReceiverWorkerAndCallback() async throws {
        try await TestOTLPReceiver.with { otlp in
            try await TestCallbackServer.with { callbacks in
                try await TestDatabase.with { database async throws in
                    let port = try await freePort()
                    try await TestSimulator.with(webhookURL: "http://127.0.0.1:\(port)/webhooks/entrupy") { simulator async throws in
                        try await Self.run(otlp: otlp, callbacks: callbacks, database: database, simulator: simulator, port: port)
                    }
                }
            }
        }
    }

    /// `serve --no-worker` and a `worker`, each a process of its own (the tracer is the
    /// process's, never the test runner's): the trace crosses from one to the other only
    /// through the job's row in PostgreSQL. One item, its callback, and the trace.
    static func run(otlp: TestOTLPReceiver, callbacks: TestCallbackServer, database: DatabaseURL, simulator: TestSimulator, port: Int) async throws {
        var env = try NotifyEnvironment.make(
            rules: rules.replacingOccurrences(of: "URL", with: callbacks.url("/ok")),
            extra: WorkerProcessTests.workerEnv(simulator, ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret]))
        env["OTEL_EXPORTER_OTLP_ENDPOINT"] = otlp.endpoint
        env["OTEL_SERVICE_NAME"] = "relay-under-test"
        env["OTEL_BSP_SCHEDULE_DELAY"] = "100"
        // Spelled out as the catalog's default: given to swift-otel whole, `false` turns its
        // logs and metrics on too (the relay keeps them on stderr and /metrics).
        env["OTEL_SDK_DISABLED"] = "false"
        let serve = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: database, env: env)
        var workerEnv = env
        workerEnv["OTEL_SERVICE_NAME"] = "relay-worker-under-test"
        let worker = try RelayProcess(["worker"], database: database, env: workerEnv)
        #expect(try await eventually(timeout: .seconds(20)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
        _ = try await simulator.createItem("sku-traced", result: "authentic", final: true)
        let received = try await callbacks.waitForRequests(1, path: "/ok")
        let expected: Set<String> = ["webhook.store", "reconcile_webhook", "GET", "rules", "deliver", "delivery.attempt"]
        _ = try await eventually(timeout: .seconds(20)) { Set(otlp.spans().map(\.name)).isSuperset(of: expected) }
        try check(received, otlp: otlp, callbackPort: callbacks.port)
        #expect(await serve.stop() == 0, "\(serve.output.suffix(2_000))")
        #expect(await worker.stop() == 0, "\(worker.output.suffix(2_000))")
    }

    /// The callback's traceparent, and the spans of its trace with their parents.
    static func check(_ received: [TestCallbackServer.Request], otlp: TestOTLPReceiver, callbackPort: Int) throws {
        let traceparent = try #require(received.first?.headers["traceparent"]?.stringValue,
                                       "the callback carries traceparent: \(received.first?.headers ?? .null)")
        let parts = traceparent.split(separator: "-").map(String.init)
        try #require(parts.count == 4 && parts[0] == "00", "a W3C traceparent: \(traceparent)")
        let (traceID, callbackParent) = (parts[1], parts[2])
        let spans = otlp.spans().filter { $0.traceID == traceID }
        func span(_ name: String) throws -> TestOTLPReceiver.Span {
            try #require(spans.first { $0.name == name }, "no \(name) span in the callback's trace: \(spans.map(\.name))")
        }
        let server = try #require(spans.first { $0.kind == "server" }, "no server span: \(spans.map(\.name))")
        let store = try span("webhook.store"), reconcile = try span("reconcile_webhook"), fetch = try span("GET")
        let rules = try span("rules"), deliver = try span("deliver"), attempt = try span("delivery.attempt")
        // The receipt in the server's process, the rest in the worker's.
        #expect(server.parentID == "" && server.service == "relay-under-test" && store.service == "relay-under-test")
        #expect([reconcile, fetch, rules, deliver, attempt].allSatisfy { $0.service == "relay-worker-under-test" })
        #expect(store.parentID == server.spanID)
        #expect(reconcile.parentID == store.spanID && reconcile.kind == "consumer")
        #expect(fetch.parentID == reconcile.spanID && fetch.kind == "client")
        #expect(fetch.attributes["http.request.method"]?.stringValue == "GET")
        #expect(rules.parentID == reconcile.spanID)
        #expect(deliver.parentID == reconcile.spanID && deliver.kind == "consumer")
        #expect(attempt.parentID == deliver.spanID && attempt.kind == "client")
        #expect(attempt.attributes["delivery.outcome"]?.stringValue == "delivered")
        // The target's URL is shown masked, as everywhere else.
        #expect(attempt.attributes["delivery.target"]?.stringValue == "http://127.0.0.1:\(callbackPort)/***")
        // The partner continues the trace from the attempt.
        #expect(callbackParent == attempt.spanID)
        // In order: each starts once its parent has.
        for (parent, child) in [(server, store), (store, reconcile), (reconcile, fetch), (fetch, rules), (reconcile, deliver), (deliver, attempt)] {
            #expect(child.start >= parent.start, "\(child.name) starts before \(parent.name)")
        }
    }
}
