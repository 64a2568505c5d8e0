public import RelayModel

/// Where the deliver handler takes a throttled target's next slot (`PostgresTargetThrottle`,
/// shared by every replica).
public protocol TargetThrottling: Sendable {
    /// A slot, or an appointment booked only when it is within `longestWait`.
    func take(key: String, limit: TargetRateLimit, longestWait: Duration) async throws -> ThrottleAnswer
}
