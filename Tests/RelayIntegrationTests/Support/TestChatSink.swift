import Foundation
import RelayModel

/// A chat service's incoming webhook that checks the body against the shape the service
/// documents and answers 400 otherwise; see deploy/test-servers/chat_sink.py.
struct TestChatSink: Sendable {
    struct Request: Sendable {
        let accepted: Bool
        let problem: String?
        let body: JSONValue
        let signed: Bool
        let verified: Bool
        let webhookHeaders: [String]
    }

    let service: String
    let port: Int
    let log: URL

    /// A URL shaped like the service's, its last segment the secret a chat URL carries.
    var url: String { "http://127.0.0.1:\(port)/hooks/\(service)/T0/B0/chat-url-secret-\(service)" }

    static func with<T: Sendable>(_ service: String, _ body: @escaping @Sendable (TestChatSink) async throws -> T) async throws -> T {
        let port = try await freePort()
        let folder = try TestServerProcess.temporaryDirectory("chat-\(service)")
        let log = folder.appendingPathComponent("requests.jsonl")
        return try await TestServerProcess.run("chat_sink.py", ["--port", String(port), "--service", service, "--secret", TestCallbackServer.secret,
                                                               "--log", log.path], folder: folder) {
            try await body(TestChatSink(service: service, port: port, log: log))
        }
    }

    func requests() -> [Request] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let json = JSONValue(jsonText: String(line)) else { return nil }
            return Request(accepted: json["accepted"]?.boolValue ?? false, problem: json["problem"]?.stringValue,
                           body: JSONValue(jsonText: json["body"]?.stringValue ?? "") ?? .null,
                           signed: json["signed"]?.boolValue ?? false, verified: json["verified"]?.boolValue ?? false,
                           webhookHeaders: json["webhook_headers"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
    }
}
