import NIOCore
import NIOPosix

/// A loopback TCP port that accepts connections and never says anything: a hung server.
func withSilentListener<T: Sendable>(_ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
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
