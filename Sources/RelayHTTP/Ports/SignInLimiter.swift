public import RelayModel

/// Failed sign-ins per client address, across every replica (`ENTRUPY_RELAY_AUTH_FAILURE_LIMIT` per
/// `ENTRUPY_RELAY_AUTH_FAILURE_WINDOW_SECONDS`).
public protocol SignInLimiter: Sendable {
    /// Records a failure from `client`; returns how long it must wait once over the limit.
    func recordFailure(_ client: String) async throws -> Duration?
}

extension FailedAttemptLimiter: SignInLimiter {
    public func recordFailure(_ client: String) async throws -> Duration? {
        retryAfter(client) ?? recordFailure(client, at: .now)
    }
}
