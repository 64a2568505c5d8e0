import Foundation
public import Hummingbird
import HTTPTypes
import Logging
import Metrics
public import RelayModel
import RelayRuntime

/// Checks `Authorization: Bearer <token>` (for `BearerAuthMiddleware`, on every `/v1` route):
/// 401 without a valid token, and 429 for a client address (resolved behind trusted proxies)
/// that sent too many bad tokens. `authorize` is the 403 of a route's declared permission.
public struct BearerAuthenticator: Sendable {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    let tokens: any TokenChecking
    let addressResolver: ClientAddressResolver
    /// Shared by every replica in service (`PostgresSignInLimiter`).
    let limiter: any SignInLimiter

    public init(tokens: any TokenChecking, addressResolver: ClientAddressResolver, limiter: any SignInLimiter) {
        self.tokens = tokens
        self.addressResolver = addressResolver
        self.limiter = limiter
    }

    /// The caller, once the token is valid. Only failures are throttled: a valid token is
    /// never refused because others failed from the same address (behind one proxy, everyone
    /// shares one); an invalid one from an address over its limit gets 429 instead of 401.
    public func authenticate(_ request: Request, context: RelayRequestContext) async throws -> Caller {
        guard let header = request.headers[.authorization] else {
            throw Self.unauthorized("send Authorization: Bearer <token>")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw Self.unauthorized("the Authorization header must be Bearer <token>")
        }
        if let caller = try await check(String(parts[1]), request: request, context: context, from: "api") { return caller }
        throw Self.unauthorized("invalid or revoked token")
    }

    /// The caller a token names, or nil when it names none (the API's and the console's sign-in
    /// share this): a failure is counted, logged with the client's address and throttled, so
    /// an address over its limit gets 429 instead.
    func check(_ token: String, request: Request, context: RelayRequestContext, from surface: String) async throws -> Caller? {
        if let caller = try await tokens.authenticate(token.trimmingCharacters(in: .whitespaces)) { return caller }
        let client = clientAddress(request, context: context)
        MetricHandles.counter(.apiAuthFailures).increment()
        context.logger.warning("\(surface): invalid token", metadata: ["client": "\(client)"])
        let wait: Duration?
        do {
            wait = try await limiter.recordFailure(client)
        } catch {
            // The answer is 401 either way; only the throttling is lost while the count cannot be kept.
            context.logger.warning("\(surface): failed sign-in not counted", metadata: ["error": "\(String(reflecting: error))"])
            wait = nil
        }
        if let wait { throw Self.tooMany(wait) }
        return nil
    }

    public func clientAddress(_ request: Request, context: RelayRequestContext) -> String {
        addressResolver.clientAddress(peer: context.peerAddress, forwardedFor: request.headers[values: Self.forwardedFor]) ?? "unknown"
    }

    /// Whether a trusted proxy says the request came over HTTPS.
    public func isHTTPS(_ request: Request, context: RelayRequestContext) -> Bool {
        guard let peer = context.peerAddress.flatMap(IPAddress.init), addressResolver.isTrusted(peer) else { return false }
        return request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    static func authorize(_ caller: Caller, for permission: Permission) throws {
        guard caller.role.allows(permission) else {
            throw APIError(.forbidden, "a \(caller.role.rawValue) token may not \(permission.rawValue)")
        }
    }

    static func unauthorized(_ message: String) -> APIError {
        APIError(.unauthorized, message, headers: [.wwwAuthenticate: #"Bearer realm="entrupy-relay""#])
    }

    static func tooMany(_ wait: Duration) -> APIError {
        APIError(.tooManyRequests, "too many failed sign-ins from this address; retry later",
                 headers: [.retryAfter: String(wait.retryAfterSeconds)])
    }
}
