public import RelayModel
public import Hummingbird
import Logging
public import NIOCore

/// The request context of every route: Hummingbird's core storage plus the TCP peer
/// (for trusted-proxy resolution) and the request ID used in logs and responses.
public struct RelayRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    public var requestID: String = ""
    /// Who the request acts for, set by the `/v1` bearer middleware or the console's session middleware.
    public var caller: Caller?
    /// The console session, on the console's signed-in pages.
    public var consoleSession: ConsoleSession?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The caller a route's permission middleware let through.
    public func requireCaller() throws -> Caller {
        guard let caller else { throw BearerAuthenticator.unauthorized("sign in first") }
        return caller
    }

    /// The peer's IP address as text, nil for unix sockets.
    public var peerAddress: String? { remoteAddress?.ipAddress }
}
