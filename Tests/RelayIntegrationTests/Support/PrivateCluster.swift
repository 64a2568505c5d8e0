import Foundation
import RelayModel

/// A PostgreSQL cluster of one test's own (`deploy/test-servers/pg_cluster.sh`, on a free port
/// in a temporary folder), for a test that halts, crashes or restarts PostgreSQL: the suite's
/// shared cluster must stay up for every other test.
struct PrivateCluster {
    static let script = TestServerProcess.root.appendingPathComponent("deploy/test-servers/pg_cluster.sh").path
    let dir: URL
    let port: Int
    /// The connection URL `start` printed.
    let url: String

    var database: DatabaseURL { get throws { try DatabaseURL(parsing: url) } }

    /// Creates and starts a cluster in a new temporary folder named after `name`.
    static func start(_ name: String) async throws -> PrivateCluster {
        let dir = try TestServerProcess.temporaryDirectory(name)
        let port = try await freePort()
        let started = try await run(["start", dir.path, String(port)])
        guard started.status == 0 else { throw TestSetupError("pg_cluster.sh start: \(started.stderr)") }
        return PrivateCluster(dir: dir, port: port, url: started.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `pg_cluster.sh COMMAND DIR`: `halt` (a fast stop that keeps it), `crash` (`-m immediate`),
    /// or `start` again on its own port.
    func run(_ command: String) async throws -> CommandLineTests.Run {
        try await Self.run(command == "start" ? [command, dir.path, String(port)] : [command, dir.path])
    }

    /// Stops the cluster and removes its folder (for a `defer`).
    func remove() {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/bash"), arguments: [Self.script, "stop", dir.path]).waitUntilExit()
    }

    static func run(_ arguments: [String]) async throws -> CommandLineTests.Run {
        try await CommandLineTests.run([script] + arguments, env: CommandLineTests.environment(nil), executable: "/bin/bash")
    }
}
