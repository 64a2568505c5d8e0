public import RelayCore

/// The SDK users the relay authorised, so support can find their items by username.
public protocol SDKUserStore: Sendable {
    @discardableResult func record(_ user: SDKUserRecord) async throws -> SDKUserRecord
}
