import Foundation
import RelayCore

/// A stored API token as `tokens list` shows it: never the token, never its hash.
public struct TokenRecord: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var role: Role
    public var hint: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    /// When it stops working (nil: until revoked).
    public var expiresAt: Date?
    public var revokedAt: Date?
}
