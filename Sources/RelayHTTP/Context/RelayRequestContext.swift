import Hummingbird
import Logging
import NIOCore

/// The request context of every route: Hummingbird's core storage plus the TCP peer
/// (for trusted-proxy resolution) and the request ID used in logs and responses.
public struct RelayRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    public var requestID: String = ""

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address as text, nil for unix sockets.
    public var peerAddress: String? { remoteAddress?.ipAddress }
}
