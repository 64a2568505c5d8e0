import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayDatabase

/// API tokens on PostgreSQL: created (shown once), listed, revoked, and checked on every
/// request by the hash of what the caller sent.
public struct PostgresTokenStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Returns the new token, which is not stored anywhere and cannot be shown again.
    /// - Parameter expiresInDays: nil for a token that works until revoked.
    public func create(name: String, role: Role, expiresInDays: Int? = nil) async throws -> (token: String, record: TokenRecord) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 100 else { throw TokenError.invalidName("1 to 100 characters") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw TokenError.invalidName("no control characters")
        }
        let token = APIToken.generate()
        do {
            let rows = try await client.query("""
                INSERT INTO api_tokens (name, role, token_hash, hint, expires_at)
                VALUES (\(trimmed), \(role), \(APIToken.hash(token)), \(APIToken.hint(token)),
                        now() + \(expiresInDays.map { max(1, min($0, 3_650)) }) * interval '1 day')
                RETURNING id, created_at, expires_at
                """, logger: logger)
            for try await (id, created, expires) in rows.decode((Int64, Date, Date?).self) {
                return (token, TokenRecord(id: id, name: trimmed, role: role, hint: APIToken.hint(token), createdAt: created,
                                           expiresAt: expires))
            }
            throw StoreError.missingResult
        } catch where PostgresErrorText.isUniqueViolation(error) {
            throw TokenError.nameTaken(trimmed)
        }
    }

    /// Active tokens, then revoked ones (with `includeRevoked`), oldest first.
    public func list(includeRevoked: Bool = false) async throws -> [TokenRecord] {
        let rows = try await client.query("""
            SELECT id, name, role, hint, created_at, last_used_at, expires_at, revoked_at FROM api_tokens
            WHERE \(includeRevoked) OR revoked_at IS NULL
            ORDER BY revoked_at IS NOT NULL, id
            """, logger: logger)
        var records: [TokenRecord] = []
        for try await (id, name, role, hint, created, used, expires, revoked)
            in rows.decode((Int64, String, Role, String, Date, Date?, Date?, Date?).self) {
            records.append(TokenRecord(id: id, name: name, role: role, hint: hint,
                                       createdAt: created, lastUsedAt: used, expiresAt: expires, revokedAt: revoked))
        }
        return records
    }

    /// Revokes the active token of that name; its console sessions end with it.
    public func revoke(name: String) async throws {
        let revoked = try await client.withTransaction(logger: logger) { tx in
            let rows = try await tx.query("""
                UPDATE api_tokens SET revoked_at = now() WHERE name = \(name) AND revoked_at IS NULL RETURNING id
                """, logger: logger)
            var ids: [Int64] = []
            for try await id in rows.decode(Int64.self) { ids.append(id) }
            for id in ids { try await tx.query("DELETE FROM console_sessions WHERE token_id = \(id)", logger: logger) }
            return !ids.isEmpty
        }
        if !revoked { throw TokenError.notFound(name) }
    }

    /// The caller a token belongs to, or nil for an unknown, revoked or expired token. Notes the use
    /// at most once a minute per token, so reads do not each become a write.
    public func authenticate(_ token: String) async throws -> Caller? {
        guard APIToken.isPlausible(token) else { return nil }
        let rows = try await client.query("""
            SELECT id, name, role, last_used_at IS NULL OR last_used_at < now() - interval '1 minute'
            FROM api_tokens WHERE token_hash = \(APIToken.hash(token)) AND revoked_at IS NULL
              AND (expires_at IS NULL OR expires_at > now())
            """, logger: logger)
        var found: (caller: Caller, stale: Bool)?
        for try await (id, name, role, stale) in rows.decode((Int64, String, Role, Bool).self) {
            found = (Caller(tokenID: id, name: name, role: role), stale)
        }
        guard let found else { return nil }
        if found.stale {
            try await client.query("UPDATE api_tokens SET last_used_at = now() WHERE id = \(found.caller.tokenID)", logger: logger)
        }
        return found.caller
    }
}
