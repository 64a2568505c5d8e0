import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A TCP forwarder in front of PostgreSQL that a test can cut and restore, to act out
/// "the database went away" without disturbing the shared test server.
final class TCPProxy: Sendable {
    private let target: SocketAddress
    private let open = NIOLockedValueBox(true)
    private let connections = NIOLockedValueBox<[any Channel]>([])
    private let server: NIOLockedValueBox<(any Channel)?> = .init(nil)

    init(targetHost: String, targetPort: Int) throws {
        target = try SocketAddress.makeAddressResolvingHost(targetHost, port: targetPort)
    }

    /// Starts listening on an ephemeral loopback port and returns it.
    func start() async throws -> Int {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] inbound in
                guard open.withLockedValue({ $0 }) else { return inbound.close() }
                connections.withLockedValue { $0.append(inbound) }
                return ClientBootstrap(group: inbound.eventLoop).connect(to: target).flatMap { outbound in
                    self.connections.withLockedValue { $0.append(outbound) }
                    return inbound.pipeline.addHandler(Relay(peer: outbound)).flatMap {
                        outbound.pipeline.addHandler(Relay(peer: inbound))
                    }
                }
            }
            .childChannelOption(.autoRead, value: true)
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        server.withLockedValue { $0 = channel }
        return channel.localAddress!.port!
    }

    /// Cuts every connection and refuses new ones (as if the database died), or restores.
    func setAvailable(_ available: Bool) {
        open.withLockedValue { $0 = available }
        if !available {
            let current = connections.withLockedValue { list -> [any Channel] in
                defer { list.removeAll() }
                return list
            }
            for channel in current { channel.close(promise: nil) }
        }
    }

    func stop() async {
        setAvailable(false)
        try? await server.withLockedValue { $0 }?.close()
    }

    private final class Relay: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let peer: any Channel
        init(peer: any Channel) { self.peer = peer }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
