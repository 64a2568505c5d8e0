import AsyncHTTPClient
import ServiceLifecycle

/// `HTTPClient` is not a `Service`: this one waits for graceful shutdown (after the services
/// that use the client have stopped) and then shuts the client down.
public struct HTTPClientService: Service {
    public let client: HTTPClient

    public init(client: HTTPClient) {
        self.client = client
    }

    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
