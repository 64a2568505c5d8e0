import Foundation
import Logging
public import PostgresNIO
public import RelayModel

/// Console sessions on PostgreSQL (so any replica serves any signed-in user). The cookie
/// holds a random ID; only its hash is stored. A revoked token's sessions end with it.
public struct PostgresSessionStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Starts a session; returns the cookie value and the session's CSRF token.
    public func create(for caller: Caller, lifetime: Duration) async throws -> (id: String, csrfToken: String) {
        var generator = SystemRandomNumberGenerator()
        let id = APIToken.randomText(bytes: 32, using: &generator)
        let csrf = APIToken.randomText(bytes: 24, using: &generator)
        try await client.query("""
            INSERT INTO console_sessions (id_hash, token_id, csrf_token, expires_at)
            VALUES (\(APIToken.hash(id)), \(caller.tokenID), \(csrf), now() + \(lifetime.milliseconds) * interval '1 millisecond')
            """, logger: logger)
        // Expired sessions are dropped as new ones start: no separate sweeper needed.
        try await client.query("DELETE FROM console_sessions WHERE expires_at < now() - interval '1 day'", logger: logger)
        return (id, csrf)
    }

    public func find(_ id: String) async throws -> ConsoleSession? {
        guard APIToken.isPlausible(id) else { return nil }
        let rows = try await client.query("""
            SELECT t.id, t.name, t.role, s.csrf_token
            FROM console_sessions s JOIN api_tokens t ON t.id = s.token_id
            WHERE s.id_hash = \(APIToken.hash(id)) AND s.expires_at > now() AND t.revoked_at IS NULL
            """, logger: logger)
        for try await (tokenID, name, role, csrf) in rows.decode((Int64, String, Role, String).self) {
            return ConsoleSession(caller: Caller(tokenID: tokenID, name: name, role: role), csrfToken: csrf)
        }
        return nil
    }

    public func delete(_ id: String) async throws {
        try await client.query("DELETE FROM console_sessions WHERE id_hash = \(APIToken.hash(id))", logger: logger)
    }
}
