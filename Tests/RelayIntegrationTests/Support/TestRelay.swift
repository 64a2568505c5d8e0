import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import RelayApp
import RelayModel
import RelayRuntime
import RelayStore
import ServiceLifecycle

/// The real `serve` stack (Hummingbird on an ephemeral port, the ingestor, a PostgreSQL
/// pool) run in-process, plus an HTTP client that talks to it over TCP.
struct TestRelay {
    let port: Int
    let http: HTTPClient
    let database: DatabaseURL

    struct Response {
        let status: Int
        let headers: [(String, String)]
        let body: String
        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    static func settings(_ database: DatabaseURL, extra: [String: String] = [:]) throws -> RelaySettings {
        var env = [
            "DATABASE_URL": "postgres://x@y/z", "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": "old-secret-0123456789," + WebhookFixture.secret,
            "ENTRUPY_RELAY_STANDARD_WEBHOOK_SECRETS": WebhookFixture.standardSecret, "ENTRUPY_RELAY_PORT": "0",
            "ENTRUPY_RELAY_ENTRUPY_API_URL": "http://127.0.0.1:9", "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "unused",
            // Dozens of relays share one PostgreSQL during the suite: keep each to the pool it had
            // before the default grew with ENTRUPY_RELAY_WORKER_CONCURRENCY.
            "ENTRUPY_RELAY_DATABASE_POOL_SIZE": "16",
            // ... and to two warmed at start, so the warm-up is exercised without opening 16 each.
            "ENTRUPY_RELAY_DATABASE_POOL_WARM_SIZE": "2",
            // A store is answered 503 after this; on a loaded 2-core CI box with the whole suite
            // running, 5 s was missed now and then by tests whose point is not speed. Tests of the
            // deadline itself set their own.
            "ENTRUPY_RELAY_WEBHOOK_STORE_TIMEOUT_MS": "15000",
        ]
        env.merge(extra) { _, new in new }
        let sources = try SettingsSources.process(env)
        try sources.checkNames(RelaySettings.catalog)
        var settings = try RelaySettings(reader: sources.reader(), receiving: true, reconciling: true)
        settings.database.url = database
        return settings
    }

    /// Runs a relay on a new migrated database (`relay.database`) during `body`: the fixture
    /// most receiver tests open with.
    static func withFresh<T: Sendable>(
        env: [String: String] = [:],
        _ body: @escaping @Sendable (TestRelay) async throws -> T
    ) async throws -> T {
        try await TestDatabase.with { database in
            try await with(database: database, env: env, body)
        }
    }

    /// Runs a relay for `database` during `body`, then shuts it down gracefully.
    static func with<T: Sendable>(
        database: DatabaseURL,
        settings customise: @Sendable (inout RelaySettings) -> Void = { _ in },
        env: [String: String] = [:],
        simulator: TestSimulator? = nil,
        port: Int = 0,
        worker: Bool = true,
        _ body: @escaping @Sendable (TestRelay) async throws -> T
    ) async throws -> T {
        var env = env
        env["ENTRUPY_RELAY_PORT"] = String(port)
        if let simulator {
            env["ENTRUPY_RELAY_ENTRUPY_API_URL"] = env["ENTRUPY_RELAY_ENTRUPY_API_URL"] ?? simulator.baseURL
            env["ENTRUPY_RELAY_ENTRUPY_API_TOKEN"] = env["ENTRUPY_RELAY_ENTRUPY_API_TOKEN"] ?? TestSimulator.token
        }
        env["ENTRUPY_RELAY_ENTRUPY_API_URL"] = env["ENTRUPY_RELAY_ENTRUPY_API_URL"] ?? "http://127.0.0.1:9"
        env["ENTRUPY_RELAY_ENTRUPY_API_TOKEN"] = env["ENTRUPY_RELAY_ENTRUPY_API_TOKEN"] ?? "unused"
        env["ENTRUPY_RELAY_JOB_POLL_MS"] = env["ENTRUPY_RELAY_JOB_POLL_MS"] ?? "200"
        env["ENTRUPY_RELAY_ENTRUPY_API_VERSION"] = env["ENTRUPY_RELAY_ENTRUPY_API_VERSION"] ?? TestSimulator.suiteAPIVersion
        var settings = try settings(database, extra: env)
        customise(&settings)
        let logger = TestDatabase.logger
        let client = try DatabaseClientFactory.makeClient(settings.database.url, poolSize: 8, logger: logger)
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let server = try RelayServer(
            settings: settings, client: client, catalog: try TestDatabase.catalog(),
            registry: MetricsBootstrap.prometheus(), logger: logger, runWorker: worker && simulator != nil,
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            }
        )
        let group = ServiceGroup(configuration: .init(services: server.services.map { .init(service: $0) }, logger: logger))
        var httpConfiguration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(20), read: .seconds(30)))
        // Tests send up to 200 requests at once; the default of 8 connections would queue them past the pool timeout.
        httpConfiguration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: httpConfiguration)
        return try await withRunning(group, http: http, onGroupEnd: { portContinuation.finish() }) {
            var ports = portStream.makeAsyncIterator()
            guard let port = await ports.next(), port > 0 else { throw TestSetupError("the relay did not start") }
            return try await body(TestRelay(port: port, http: http, database: database))
        }
    }

    func request(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> Response {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await http.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 10 << 20)
        return Response(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                        body: String(buffer: buffer))
    }

    func post(_ fixture: WebhookFixture, extraHeaders: [(String, String)] = []) async throws -> Response {
        try await request("/webhooks/entrupy", method: .POST, headers: fixture.headers + extraHeaders, body: fixture.body)
    }

    func count(_ sql: String) async throws -> Int {
        try await TestDatabase.scalar(database, sql)
    }
}
