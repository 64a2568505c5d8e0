public import ServiceLifecycle

/// Closes a client that is not a `Service` (AsyncHTTPClient's `HTTPClient`, the SMTP
/// connection pool): it waits for graceful shutdown, which reaches it after the services
/// started later (those that use the client) have stopped, then runs `close`.
public struct ShutdownHook: Service {
    let close: @Sendable () async throws -> Void

    public init(_ close: @escaping @Sendable () async throws -> Void) {
        self.close = close
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await close()
    }
}
