import AsyncHTTPClient
import EntrupySimulator
import Foundation
import NIOCore
import NIOHTTP1
import RelayModel
import ServiceLifecycle

/// The project's Entrupy simulator, run in-process on an ephemeral port, with helpers for its
/// admin API.
struct TestSimulator: Sendable {
    static let token = "sim-test-token"
    /// The API version the relays of most suites speak: they were written against v1.4's item
    /// (certificate sites, flag info, brand ids), which v2's lacks. The pipeline in v2, the
    /// relay's default, is `EntrupyVersionTests`'s, against a simulator that serves only v2.
    static let suiteAPIVersion = "1.4"
    let port: Int
    let http: HTTPClient

    var baseURL: String { "http://127.0.0.1:\(port)" }

    static func with<T: Sendable>(webhookURL: String?, _ body: @escaping @Sendable (TestSimulator) async throws -> T) async throws -> T {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let simulator = EntrupySimulator(
            configuration: .init(port: 0, webhookURL: webhookURL, webhookSecret: WebhookFixture.secret, apiToken: token),
            logger: TestDatabase.logger,
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0); continuation.finish() }
        )
        let group = ServiceGroup(configuration: .init(services: simulator.services.map { .init(service: $0) }, logger: TestDatabase.logger))
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        return try await withRunning(group, http: http, onGroupEnd: { continuation.finish() }) {
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw TestSetupError("the simulator did not start") }
            return try await body(TestSimulator(port: port, http: http))
        }
    }

    @discardableResult
    func call(_ method: HTTPMethod, _ path: String, _ body: JSONValue? = nil, headers: [(String, String)] = []) async throws -> (Int, JSONValue) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body.jsonText)) }
        let response = try await http.execute(request, timeout: .seconds(10))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        return (Int(response.status.code), (try? JSONValue.parse(Array(bytes.readableBytesView))) ?? .null)
    }

    /// Creates an item; returns its Entrupy ID.
    func createItem(_ customerItemID: String, brand: String = "nike", result: String? = nil, final: Bool? = nil, webhook: Bool = true) async throws -> String {
        var body: [String: JSONValue] = ["customer_item_id": .string(customerItemID), "brand": .string(brand), "webhook": .bool(webhook)]
        if let result { body["result"] = .string(result) }
        if let final { body["final"] = .bool(final) }
        let (status, json) = try await call(.POST, "/_sim/items", .object(body))
        guard status == 201, let id = json["entrupy_id"]?.stringValue else { throw TestSetupError("simulator refused the item: \(status)") }
        return id
    }

    func setResult(_ id: String, _ result: String, final: Bool, webhook: Bool = true) async throws {
        let (status, _) = try await call(.POST, "/_sim/items/\(id)/result", .object(["result": .string(result), "final": .bool(final), "webhook": .bool(webhook)]))
        guard status == 200 else { throw TestSetupError("simulator refused the result: \(status)") }
    }

    func setFlag(_ id: String, _ flag: String, webhook: Bool = true) async throws {
        let (status, _) = try await call(.POST, "/_sim/items/\(id)/flag", .object(["flag": .string(flag), "webhook": .bool(webhook)]))
        guard status == 200 else { throw TestSetupError("simulator refused the flag: \(status)") }
    }

    func configure(_ settings: [String: JSONValue]) async throws {
        let (status, _) = try await call(.POST, "/_sim/config", .object(settings))
        guard status == 200 else { throw TestSetupError("simulator refused the config: \(status)") }
    }

    func stats() async throws -> JSONValue { try await call(.GET, "/_sim/stats").1 }
}
