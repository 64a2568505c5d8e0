import RelayModel

/// Calls per window for one token on one route, across every replica.
public protocol CallerRate: Sendable {
    /// Counts a call; nil, or how long until the token may call again.
    func take(tokenID: Int64) async throws -> Duration?
}
