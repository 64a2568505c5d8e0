import Foundation

/// A test server from PyPI (aiosmtpd, a standardwebhooks-verifying HTTP endpoint) run from
/// `deploy/test-servers/` with the virtualenv that `deploy/lib/test-tools.sh` made.
enum TestServerProcess {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static func python() throws -> String {
        let path = ProcessInfo.processInfo.environment["TEST_PYTHON"] ?? root.appendingPathComponent(".local/pytools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSetupError("the test servers' Python is missing: run the suite with ./deploy/local.sh test")
        }
        return path
    }

    /// Starts `script` and waits until it prints "ready".
    static func start(_ script: String, _ arguments: [String]) async throws -> RelayProcess {
        let process = try RelayProcess(binary: try python(),
                                       [root.appendingPathComponent("deploy/test-servers/\(script)").path] + arguments)
        guard try await eventually(timeout: .seconds(20), { process.output.contains("ready") || !process.isRunning }),
              process.isRunning else {
            let output = process.output
            await stop(process)
            throw TestSetupError("\(script) did not start: \(output)")
        }
        return process
    }

    /// SIGTERM, then SIGKILL when it has not gone within a few seconds.
    static func stop(_ process: RelayProcess) async {
        process.kill(SIGTERM)
        if (try? await eventually(timeout: .seconds(5), { !process.isRunning })) != true { process.kill(SIGKILL) }
        _ = await process.waitForExit()
    }

    /// Runs `script` during `body`, then stops it and removes `folder`, whether `body` threw or not.
    static func run<T: Sendable>(_ script: String, _ arguments: [String], folder: URL,
                                 _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let process = try await start(script, arguments)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let result = try await body()
            await stop(process)
            return result
        } catch {
            await stop(process)
            throw error
        }
    }

    static func temporaryDirectory(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
