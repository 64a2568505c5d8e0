public import RelayModel

/// Where the deliver handler takes a throttled target's next slot (`PostgresTargetThrottle`,
/// shared by every replica).
public protocol TargetThrottling: Sendable {
    func take(key: String, limit: TargetRateLimit) async throws -> ThrottleAnswer
}
