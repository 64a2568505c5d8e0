public import Foundation

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

    public init(id: Int64, name: String, role: Role, hint: String, createdAt: Date, lastUsedAt: Date? = nil, expiresAt: Date? = nil, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.role = role
        self.hint = hint
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }
}
