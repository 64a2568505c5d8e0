import AsyncHTTPClient
import ServiceLifecycle

/// Runs `group` while `body` runs, then shuts it down gracefully and the HTTP client with it,
/// whether `body` succeeded or threw. Shared by the in-process relay and simulator.
func withRunning<T: Sendable>(_ group: ServiceGroup, http: HTTPClient, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { tasks in
        tasks.addTask { try await group.run(); return nil }
        do {
            let result = try await body()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            try await http.shutdown()
            return result
        } catch {
            await group.triggerGracefulShutdown()
            try? await tasks.waitForAll()
            try? await http.shutdown()
            throw error
        }
    }
}
