import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RelayModel
import Testing

/// Issue 42, 1 and 6, from outside: `entrupy-relay serve` as its own process exporting to a real
/// OTLP receiver. At 7d33bbb swift-otel logged every `OTEL_*` override with its value at info
/// (the collector's API key in `OTEL_EXPORTER_OTLP_HEADERS` among them) whatever the log level;
/// the headers could not be a credential file; spans carried `url.query` whole, continued a
/// caller's `traceparent` (its trace ID went on to partners), and covered `/healthz`,
/// `/readyz` and `/metrics`; "sdk user authorized" logged the user's ID and username at info.
@Suite("Tracing and logs keep secrets and people out", .timeLimit(.minutes(3)))
struct TracingPrivacyTests {
    static let callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736", callerSpan = "00f067aa0ba902b7"

    @Test func publicSpansAreNewTracesWithoutQueryValuesProbesOrTheCollectorsKeyInTheLog() async throws {
        try await TestOTLPReceiver.with { otlp in
            try await TestDatabase.with { database async throws in
                try await TestSimulator.with(webhookURL: nil) { simulator async throws in
                    let marker = "collector-key-\(UUID().uuidString.prefix(8))"
                    var env = Self.tracingEnv(otlp, ["OTEL_EXPORTER_OTLP_HEADERS": "x-collector-key=\(marker)", "OTEL_LOG_LEVEL": "debug"])
                    env["ENTRUPY_RELAY_ENTRUPY_API_URL"] = simulator.baseURL
                    env["ENTRUPY_RELAY_ENTRUPY_API_TOKEN"] = TestSimulator.token
                    let port = try await freePort()
                    let serve = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: database, env: env)
                    #expect(try await eventually(timeout: .seconds(20)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
                    let consumer = try await APIAccess.token(database, role: .consumer)
                    let username = try await Self.requests(port: port, token: consumer)
                    _ = try await eventually(timeout: .seconds(20)) { otlp.spans().contains { $0.attributes["url.path"]?.stringValue == "/v1/sdk/authorize" } }
                    #expect(await serve.stop() == 0)
                    try Self.checkSpans(otlp.spans(), marker: marker)
                    let output = serve.output
                    #expect(output.contains("tracing on"), "\(output.suffix(2_000))")
                    for secret in [marker, "uid-private-4242", username, "ada-lovelace-7", "sku-private-9"] {
                        #expect(!output.contains(secret), "\(secret) in the log: \(output.suffix(3_000))")
                    }
                }
            }
        }
    }

    /// The probes, a search for a person with a caller's traceparent, and an SDK authorize;
    /// the username Entrupy gave the user.
    static func requests(port: Int, token: String) async throws -> String {
        for path in ["/healthz", "/readyz", "/metrics"] { #expect(try await send(port, path).status == 200, "\(path)") }
        let search = try await send(port, "/v1/items?username=ada-lovelace-7&customer_item_id=sku-private-9",
                                    headers: [("Authorization", "Bearer \(token)"), ("traceparent", "00-\(callerTrace)-\(callerSpan)-01")])
        #expect(search.status == 200, "\(search.body)")
        let authorize = try await send(port, "/v1/sdk/authorize", method: .POST, headers: [("Authorization", "Bearer \(token)"), ("Content-Type", "application/json")],
                                       body: #"{"sdk_authorization_request": "req-1", "unique_user_id": "uid-private-4242", "email": "ada@example.com"}"#)
        #expect(authorize.status == 200, "\(authorize.body)")
        let username = JSONValue(jsonText: authorize.body)?["username"]?.stringValue
        return try #require(username, "\(authorize.body)")
    }

    static func checkSpans(_ spans: [TestOTLPReceiver.Span], marker: String) throws {
        let servers = spans.filter { $0.kind == "server" }
        let paths = servers.compactMap { $0.attributes["url.path"]?.stringValue }
        #expect(!paths.contains("/healthz") && !paths.contains("/readyz") && !paths.contains("/metrics"), "\(paths)")
        let search = try #require(servers.first { $0.attributes["url.path"]?.stringValue == "/v1/items" }, "\(paths)")
        #expect(search.attributes["url.query"]?.stringValue == "username=REDACTED&customer_item_id=REDACTED", "\(search.attributes)")
        #expect(!"\(search.attributes)".contains("ada-lovelace-7") && !"\(search.attributes)".contains("sku-private-9"))
        // A new trace of the relay's own, linked to the caller's context, never its child.
        #expect(search.traceID != callerTrace && search.parentID == "", "trace \(search.traceID), parent \(search.parentID)")
        #expect(search.links.contains { $0.traceID == callerTrace && $0.spanID == callerSpan }, "\(search.links)")
        // The collector still gets its key.
        #expect(search.exportHeaders["x-collector-key"]?.stringValue == marker, "\(search.exportHeaders)")
    }

    /// `OTEL_EXPORTER_OTLP_HEADERS_FILE` (a systemd credential) carries the headers; `config show`
    /// says they are set, never what they are; both forms at once stop start-up.
    @Test func collectorHeadersFromACredentialFile() async throws {
        let marker = "collector-file-key-\(UUID().uuidString.prefix(8))"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-headers-\(UUID().uuidString)")
        try "x-collector-key=\(marker)\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestOTLPReceiver.with { otlp in
            try await TestDatabase.with { database async throws in
                let env = Self.tracingEnv(otlp, ["OTEL_EXPORTER_OTLP_HEADERS_FILE": file.path, "ENTRUPY_RELAY_LOG_LEVEL": "debug"])
                let port = try await freePort()
                let serve = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: database, env: env)
                #expect(try await eventually(timeout: .seconds(20)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
                _ = try await Self.send(port, "/v1/items?page=2")
                let exported = try await eventually(timeout: .seconds(20)) {
                    otlp.spans().contains { $0.exportHeaders["x-collector-key"]?.stringValue == marker }
                }
                #expect(exported, "\(otlp.spans().map(\.exportHeaders))")
                #expect(await serve.stop() == 0)
                #expect(!serve.output.contains(marker), "\(serve.output.suffix(3_000))")

                let show = try await CommandLineTests.run(["config", "show"], env: CommandLineTests.environment(database, env))
                let lines = show.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
                #expect(lines.contains("OTEL_EXPORTER_OTLP_HEADERS (secret, set) OTEL_EXPORTER_OTLP_HEADERS_FILE"), "\(show.stdout)")
                #expect(!show.stdout.contains(marker) && !show.stderr.contains(marker))

                var both = env
                both["OTEL_EXPORTER_OTLP_HEADERS"] = "x-collector-key=\(marker)"
                // A relay that ignored the file would serve on: stopped, it fails the test instead of hanging it.
                let refused = try RelayProcess(["serve", "--no-worker", "--port", String(port)], database: database, env: both)
                let ended = try await eventually(timeout: .seconds(20)) { !refused.isRunning }
                let status = await refused.stop()
                #expect(ended && status == 1, "\(refused.output.suffix(2_000))")
                #expect(refused.output.contains("OTEL_EXPORTER_OTLP_HEADERS_FILE is invalid: OTEL_EXPORTER_OTLP_HEADERS is set too; set one of them"),
                        "\(refused.output.suffix(2_000))")
                #expect(!refused.output.contains(marker))
            }
        }
    }

    static func tracingEnv(_ otlp: TestOTLPReceiver, _ extra: [String: String]) -> [String: String] {
        var env = ["ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_LOG_LEVEL": "info",
                   "OTEL_EXPORTER_OTLP_ENDPOINT": otlp.endpoint, "OTEL_BSP_SCHEDULE_DELAY": "100"]
        env.merge(extra) { _, new in new }
        return env
    }

    static func send(_ port: Int, _ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [],
                     body: String? = nil) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        return (Int(response.status.code), String(buffer: try await response.body.collect(upTo: 1 << 20)))
    }
}
