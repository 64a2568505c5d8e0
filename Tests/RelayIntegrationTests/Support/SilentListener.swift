import NIOCore
import NIOPosix

/// A loopback TCP server of the test's own: `childHandler` makes each connection's handler
/// (none: a server that accepts and never says anything, a hung peer). `body` gets the port;
/// the server is closed afterwards, whether `body` threw or not.
func withLoopbackServer<T: Sendable>(childHandler: (@Sendable () -> any ChannelHandler)? = nil,
                                     _ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelInitializer { child in
            child.eventLoop.makeCompletedFuture {
                if let childHandler { try child.pipeline.syncOperations.addHandler(childHandler()) }
            }
        }
        .bind(host: "127.0.0.1", port: 0).get()
    do {
        let result = try await body(channel.localAddress!.port!)
        try? await channel.close()
        return result
    } catch {
        try? await channel.close()
        throw error
    }
}

/// A loopback TCP port that accepts connections and never says anything: a hung server.
func withSilentListener<T: Sendable>(_ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
    try await withLoopbackServer(body)
}
