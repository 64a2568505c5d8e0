import Foundation
import RelayModel
import Synchronization

/// An `entrupy-relay` subcommand running as its own process (a worker replica, a server, a
/// one-shot command), stopped by PID. Output goes to a file (a pipe could fill up and stall
/// the child) and the exit is awaited through `terminationHandler`, never by blocking a thread
/// of the cooperative pool, which on 2 cores would starve the in-process servers under test.
final class RelayProcess: Sendable {
    let process: Process
    let log: URL
    /// The exit status once known, and whoever waits for it.
    private final class ExitState: Sendable {
        let state = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))
    }
    private let exit = ExitState()

    init(binary: String? = nil, _ arguments: [String], env: [String: String] = ProcessInfo.processInfo.environment) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try binary ?? CommandLineTests.binary())
        process.arguments = arguments
        process.environment = env
        log = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let exit = self.exit
        process.terminationHandler = { finished in
            let status = finished.terminationStatus
            let waiters = exit.state.withLock { state -> [CheckedContinuation<Int32, Never>] in
                state.status = status
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: status) }
        }
        try process.run()
    }

    convenience init(_ arguments: [String], database: DatabaseURL, env: [String: String]) throws {
        try self.init(binary: nil, arguments, env: CommandLineTests.environment(database, env))
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { exit.state.withLock { $0.status == nil } }

    func kill(_ signal: Int32) {
        if isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    /// Waits for the process to end and returns its exit status.
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { continuation in
            let done = exit.state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }

    /// SIGTERM, then the exit status.
    @discardableResult
    func stop() async -> Int32 {
        kill(SIGTERM)
        return await waitForExit()
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    deinit {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(at: log)
    }
}
