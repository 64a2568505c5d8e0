import AsyncHTTPClient
import Foundation
import NIOCore

/// A real Prometheus server (Debian's, taken out of its package into `.local/bin` by
/// deploy/lib/test-tools.sh) on a free loopback port, its storage in a temporary folder, scraping
/// and evaluating every second. Stopped by PID.
struct TestPrometheus: Sendable {
    let port: Int

    static var binary: String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String?] = [environment["TEST_PROMETHEUS"], TestServerProcess.root.appendingPathComponent(".local/bin/prometheus").path]
        candidates += (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/prometheus" }
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `scrape` maps each job name to its `host:port` targets; `rules` is an alerting rules file's text.
    static func with<T: Sendable>(scrape: [String: [String]], rules: String,
                                  _ body: @escaping @Sendable (TestPrometheus) async throws -> T) async throws -> T {
        guard let binary else { throw TestSetupError("prometheus is missing: run deploy/lib/test-tools.sh") }
        let folder = try TestServerProcess.temporaryDirectory("prometheus")
        defer { try? FileManager.default.removeItem(at: folder) }
        try rules.write(to: folder.appendingPathComponent("alerts.yml"), atomically: true, encoding: .utf8)
        let jobs = scrape.sorted { $0.key < $1.key }.map { job, targets in
            "  - job_name: \(job)\n    static_configs:\n      - targets: [\(targets.map { "\"\($0)\"" }.joined(separator: ", "))]"
        }
        let config = """
            global:
              scrape_interval: 1s
              scrape_timeout: 1s
              evaluation_interval: 1s
            rule_files: ["\(folder.appendingPathComponent("alerts.yml").path)"]
            scrape_configs:
            \(jobs.joined(separator: "\n"))

            """
        try config.write(to: folder.appendingPathComponent("prometheus.yml"), atomically: true, encoding: .utf8)
        let port = try await freePort()
        let server = try RelayProcess(binary: binary, [
            "--config.file=\(folder.appendingPathComponent("prometheus.yml").path)", "--storage.tsdb.path=\(folder.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
        ])
        let prometheus = TestPrometheus(port: port)
        do {
            guard try await eventually(timeout: .seconds(20), { (try? await HTTPProbe(port: port).status("/-/ready")) == 200 }) else {
                throw TestSetupError("prometheus did not become ready: \(server.output)")
            }
            let result = try await body(prometheus)
            await stop(server)
            return result
        } catch {
            await stop(server)
            throw TestSetupError("\(error); prometheus said: \(server.output.suffix(2_000))")
        }
    }

    /// Its storage is thrown away with the folder: nothing is worth a graceful stop.
    private static func stop(_ server: RelayProcess) async {
        server.kill(SIGKILL)
        _ = await server.waitForExit()
    }

    /// The `data` of an API answer (`/api/v1/...`), after checking its status is success.
    func api(_ path: String) async throws -> Any {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)"), timeout: .seconds(5))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        let json = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any]
        guard let json, json["status"] as? String == "success", let data = json["data"] else {
            throw TestSetupError("prometheus answered \(response.status.code) to \(path): \(String(buffer: bytes).prefix(500))")
        }
        return data
    }

    /// Each active scrape target's job and health (`up`, `down`, `unknown`).
    func targets() async throws -> [(job: String, health: String)] {
        let data = try await api("/api/v1/targets?state=active") as? [String: Any]
        let active = data?["activeTargets"] as? [[String: Any]] ?? []
        return active.map { (($0["labels"] as? [String: String])?["job"] ?? "", $0["health"] as? String ?? "") }
    }

    /// Each alert pending or firing now: its name, state (`pending`, `firing`) and labels.
    func alerts() async throws -> [(name: String, state: String, labels: [String: String])] {
        let data = try await api("/api/v1/alerts") as? [String: Any]
        return (data?["alerts"] as? [[String: Any]] ?? []).map { alert in
            let labels = alert["labels"] as? [String: String] ?? [:]
            return (labels["alertname"] ?? "", alert["state"] as? String ?? "", labels)
        }
    }

    /// Each loaded rule's name and health (`ok`, `err`, `unknown` before its first evaluation), with its last error.
    func rules() async throws -> [(name: String, health: String, error: String)] {
        let data = try await api("/api/v1/rules") as? [String: Any]
        let groups = data?["groups"] as? [[String: Any]] ?? []
        return groups.flatMap { ($0["rules"] as? [[String: Any]] ?? []) }.map {
            ($0["name"] as? String ?? "", $0["health"] as? String ?? "", $0["lastError"] as? String ?? "")
        }
    }

    /// The instant query's result: throws when Prometheus refuses the expression.
    func query(_ expr: String) async throws -> [Any] {
        let encoded = expr.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? expr
        let data = try await api("/api/v1/query?query=\(encoded)") as? [String: Any]
        return data?["result"] as? [Any] ?? []
    }
}
