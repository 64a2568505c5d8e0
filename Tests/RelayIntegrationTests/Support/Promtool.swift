import Foundation

/// Prometheus's own linter, `promtool check metrics`, run on a `/metrics` text. It comes from
/// Debian's `prometheus` package: `deploy/lib/test-tools.sh` puts the binary in `.local/bin`
/// (or it is on the PATH).
enum Promtool {
    static var path: String? {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String?] = [environment["TEST_PROMTOOL"], TestServerProcess.root.appendingPathComponent(".local/bin/promtool").path]
        candidates += (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map { "\($0)/promtool" }
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What the linter says about `exposition` (empty when it has nothing to say), with its exit status.
    static func checkMetrics(_ exposition: String, promtool: String) async throws -> (status: Int32, said: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("metrics-\(UUID().uuidString).txt")
        try exposition.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await CommandLineTests.run(["-c", #"exec "$0" check metrics < "$1""#, promtool, file.path],
                                                 env: ["PATH": "/usr/bin:/bin"], executable: "/bin/sh")
        return (run.status, run.stdout + run.stderr)
    }
}
