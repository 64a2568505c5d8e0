public import RelayModel
import Foundation
import Logging
public import PostgresNIO

/// SDK users on PostgreSQL, keyed by the organisation's unique user ID.
public struct PostgresSDKUserStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// A 409 without a username: the stored user (if any) keeps its username and details.
    public func recordConflict(uniqueUserID: String) async throws -> String? {
        let rows = try await client.query("""
            UPDATE sdk_users SET conflict = true, authorizations = authorizations + 1, last_authorized_at = now()
            WHERE unique_user_id = \(uniqueUserID)
            RETURNING username
            """, logger: logger)
        for try await username in rows.decode(String.self) { return username }
        return nil
    }

    /// Records an authorisation as Entrupy kept it: the first accepted details stay. A 200
    /// means the details sent match what Entrupy holds, so it fills in only what the relay did
    /// not know yet; absent names change nothing. A 409 means Entrupy kept other details: the
    /// stored ones stay (unknown, NULL, when this is the relay's first sight of the user), and
    /// only Entrupy's username is taken.
    @discardableResult
    public func record(_ user: SDKUserRecord) async throws -> SDKUserRecord {
        let rows = try await client.query("""
            INSERT INTO sdk_users (unique_user_id, username, email, first_name, last_name, conflict)
            SELECT \(user.uniqueUserID), \(user.username),
                   CASE WHEN c THEN NULL ELSE \(user.email) END, CASE WHEN c THEN NULL ELSE \(user.firstName) END,
                   CASE WHEN c THEN NULL ELSE \(user.lastName) END, c
            FROM (SELECT \(user.conflict)::boolean AS c) AS answer
            ON CONFLICT (unique_user_id) DO UPDATE SET
                username = EXCLUDED.username, conflict = EXCLUDED.conflict,
                email = CASE WHEN EXCLUDED.conflict THEN sdk_users.email ELSE coalesce(sdk_users.email, \(user.email)) END,
                first_name = CASE WHEN EXCLUDED.conflict THEN sdk_users.first_name ELSE coalesce(sdk_users.first_name, \(user.firstName)) END,
                last_name = CASE WHEN EXCLUDED.conflict THEN sdk_users.last_name ELSE coalesce(sdk_users.last_name, \(user.lastName)) END,
                authorizations = sdk_users.authorizations + 1, last_authorized_at = now()
            RETURNING unique_user_id, username, email, first_name, last_name, conflict, authorizations
            """, logger: logger)
        for try await r in rows.decode((String, String, String?, String?, String?, Bool, Int).self) {
            return SDKUserRecord(uniqueUserID: r.0, username: r.1, email: r.2, firstName: r.3, lastName: r.4,
                                 conflict: r.5, authorizations: r.6)
        }
        throw StoreError.missingResult
    }
}
