import Foundation
import RelayCore

/// A stored API token as `tokens list` shows it: never the token, never its hash.
public struct TokenRecord: Sendable, Equatable, Encodable {
    public var id: Int64
    public var name: String
    public var role: Role
    public var hint: String
    public var createdAt: Date
    public var lastUsedAt: Date?
    public var revokedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, role, hint
        case createdAt = "created_at"
        case lastUsedAt = "last_used_at"
        case revokedAt = "revoked_at"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(role, forKey: .role)
        try c.encode(hint, forKey: .hint)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastUsedAt, forKey: .lastUsedAt)
        try c.encode(revokedAt, forKey: .revokedAt)
    }
}
