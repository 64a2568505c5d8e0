import RelayModel
import Foundation
import RelayHTTP
import RelayStore

/// A token as `tokens list --json` prints it: never the token, never its hash.
struct TokenJSON: Encodable {
    let id: Int64
    let name: String
    let role: String
    let hint: String
    let createdAt: Date
    @AlwaysPresent var lastUsedAt: Date?
    @AlwaysPresent var expiresAt: Date?
    @AlwaysPresent var revokedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, name, role, hint, createdAt = "created_at", lastUsedAt = "last_used_at", expiresAt = "expires_at", revokedAt = "revoked_at"
    }

    init(_ record: TokenRecord) {
        id = record.id
        name = record.name
        role = record.role.rawValue
        hint = record.hint
        createdAt = record.createdAt
        lastUsedAt = record.lastUsedAt
        expiresAt = record.expiresAt
        revokedAt = record.revokedAt
    }
}
