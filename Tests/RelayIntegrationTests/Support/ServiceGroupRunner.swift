import AsyncHTTPClient
import RelayRuntime
import ServiceLifecycle
import Testing

/// Runs `group` while `body` runs, then shuts it down gracefully and the HTTP client with it,
/// whether `body` succeeded or threw. Shared by the in-process relay and simulator.
///
/// The shutdown is bounded by `shutdownLimit`: `serve` has a watchdog that ends the process
/// when a shutdown hangs (an await on a connection the database dropped), which an in-process
/// relay cannot have. A group still running then is cancelled and left behind, and the test
/// fails saying so, instead of holding the whole run until CI's limit (seen once in the
/// database-outage test, whose connections go through a proxy that is cut and restored).
///
/// `onGroupEnd` runs as soon as the group ends by itself (a server that could not bind its
/// port, say), so a body waiting for the server to start is released instead of waiting for
/// ever. When the body then fails setting up, the group's own error is added to its message.
func withRunning<T: Sendable>(_ group: ServiceGroup, http: HTTPClient, shutdownLimit: Duration = .seconds(60),
                              onGroupEnd: @escaping @Sendable () -> Void = {},
                              _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let runner = Task {
        defer { onGroupEnd() }
        try await group.run()
    }
    let result: T
    do {
        result = try await body()
    } catch let error as TestSetupError {
        do {
            try await stop(group, runner: runner, http: http, limit: shutdownLimit)
        } catch let groupError {
            throw TestSetupError("\(error.description); the service group ended with: \(String(reflecting: groupError))")
        }
        throw error
    } catch {
        try? await stop(group, runner: runner, http: http, limit: shutdownLimit)
        throw error
    }
    try await stop(group, runner: runner, http: http, limit: shutdownLimit)
    return result
}

/// Shuts the group down and waits for it, at most `limit`, even when the test itself was
/// cancelled (its time limit): the wait runs in a task of its own, so the group is cancelled
/// and waited for rather than left running into later tests. The HTTP client is shut down
/// whatever happened (one that is not would trap when it is released).
private func stop(_ group: ServiceGroup, runner: Task<Void, any Error>, http: HTTPClient, limit: Duration) async throws {
    await group.triggerGracefulShutdown()
    let finished = await Task {
        try await withDeadline(limit) { try await runner.value }
    }.result
    var failure: (any Error)?
    switch finished {
    case .success:
        break
    case .failure(let error as DeadlineExceeded):
        runner.cancel()
        Issue.record("the in-process service group did not shut down: \(error)")
    case .failure(let error):
        failure = error
    }
    do {
        try await http.shutdown()
    } catch {
        failure = failure ?? error
    }
    if let failure { throw failure }
}
