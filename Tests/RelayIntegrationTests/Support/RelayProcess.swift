import Foundation
import RelayCore

/// An `entrupy-relay` subcommand running as its own process (a worker replica, a server),
/// stopped by PID at the end of the test.
final class RelayProcess: @unchecked Sendable {
    let process = Process()
    let log: URL

    init(_ arguments: [String], database: DatabaseURL, env: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: try CommandLineTests.binary())
        process.arguments = arguments
        process.environment = CommandLineTests.environment(database, env)
        log = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    func kill(_ signal: Int32) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// SIGTERM, then waits for the exit; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        kill(SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: log)
    }
}
