import Foundation
import Logging
import PostgresNIO

/// SDK users on PostgreSQL, keyed by the organisation's unique user ID.
public struct PostgresSDKUserRepository: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// Records an authorisation. On a 409 the first call's email and names stay (they are
    /// what Entrupy kept); the username is always Entrupy's latest answer.
    @discardableResult
    public func record(_ user: SDKUserRecord) async throws -> SDKUserRecord {
        let rows = try await client.query("""
            INSERT INTO sdk_users (unique_user_id, username, email, first_name, last_name, conflict)
            VALUES (\(user.uniqueUserID), \(user.username), \(user.email), \(user.firstName), \(user.lastName), \(user.conflict))
            ON CONFLICT (unique_user_id) DO UPDATE SET
                username = EXCLUDED.username, conflict = EXCLUDED.conflict,
                email = CASE WHEN EXCLUDED.conflict THEN sdk_users.email ELSE EXCLUDED.email END,
                first_name = CASE WHEN EXCLUDED.conflict THEN sdk_users.first_name ELSE EXCLUDED.first_name END,
                last_name = CASE WHEN EXCLUDED.conflict THEN sdk_users.last_name ELSE EXCLUDED.last_name END,
                authorizations = sdk_users.authorizations + 1, last_authorized_at = now()
            RETURNING unique_user_id, username, email, first_name, last_name, conflict, authorizations
            """, logger: logger)
        for try await r in rows.decode((String, String, String, String?, String?, Bool, Int).self) {
            return SDKUserRecord(uniqueUserID: r.0, username: r.1, email: r.2, firstName: r.3, lastName: r.4,
                                 conflict: r.5, authorizations: r.6)
        }
        throw StoreError.missingResult
    }
}
