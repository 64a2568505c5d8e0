import Foundation
import RelayModel

/// An HTTP endpoint that verifies callbacks with PyPI's standardwebhooks library and logs
/// each request; see deploy/test-servers/callback_sink.py for the paths' behaviours.
struct TestCallbackServer: Sendable {
    static let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

    struct Request: Sendable {
        let path: String
        let webhookID: String
        let verified: Bool
        let error: String?
        let status: Int
        let body: JSONValue
        let headers: JSONValue
        let receivedAt: Double
    }

    let port: Int
    let log: URL

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    static func with<T: Sendable>(secret: String = TestCallbackServer.secret,
                                  _ body: @escaping @Sendable (TestCallbackServer) async throws -> T) async throws -> T {
        let port = try await freePort()
        let folder = try TestServerProcess.temporaryDirectory("callbacks")
        let log = folder.appendingPathComponent("requests.jsonl")
        return try await TestServerProcess.run("callback_sink.py", ["--port", String(port), "--secret", secret, "--log", log.path],
                                               folder: folder) {
            try await body(TestCallbackServer(port: port, log: log))
        }
    }

    /// `/switch/...` answers 503 while down, 200 otherwise.
    func setDown(_ down: Bool) throws {
        let marker = log.path + ".down"
        if down {
            FileManager.default.createFile(atPath: marker, contents: Data())
        } else if FileManager.default.fileExists(atPath: marker) {
            try FileManager.default.removeItem(atPath: marker)
        }
    }

    func requests() throws -> [Request] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let json = JSONValue(jsonText: String(line)) else { return nil }
            return Request(path: json["path"]?.stringValue ?? "", webhookID: json["webhook_id"]?.stringValue ?? "",
                           verified: json["verified"]?.boolValue ?? false, error: json["error"]?.stringValue,
                           status: Int(json["status"]?.doubleValue ?? 0),
                           body: JSONValue(jsonText: json["body"]?.stringValue ?? "") ?? .null,
                           headers: json["headers"] ?? .null, receivedAt: json["received_at"]?.doubleValue ?? 0)
        }
    }

    func waitForRequests(_ count: Int, path: String? = nil, timeout: Duration = .seconds(20)) async throws -> [Request] {
        func matching() throws -> [Request] { try requests().filter { path == nil || $0.path == path } }
        _ = try await eventually(timeout: timeout) { try matching().count >= count }
        return try matching()
    }
}
