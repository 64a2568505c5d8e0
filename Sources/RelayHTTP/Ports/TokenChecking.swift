public import RelayModel

/// Who a bearer token acts for: nil for an unknown or revoked token.
public protocol TokenChecking: Sendable {
    func authenticate(_ token: String) async throws -> Caller?
}
