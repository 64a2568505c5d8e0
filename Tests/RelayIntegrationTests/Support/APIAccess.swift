import Foundation
import NIOHTTP1
import PostgresNIO
import RelayModel
import RelayStore

/// Tokens for the query API tests, and requests that carry them.
enum APIAccess {
    static func token(_ database: DatabaseURL, role: Role, name: String? = nil) async throws -> String {
        try await TestDatabase.withClient(database) { client in
            try await PostgresTokenStore(client: client, logger: TestDatabase.logger)
                .create(name: name ?? "\(role.rawValue)-\(UUID().uuidString.prefix(8))", role: role).token
        }
    }

    /// `count` items straight into the table, varied over the filters (deterministically by index),
    /// submitted one minute apart going back from `newest`.
    static func seedItems(_ database: DatabaseURL, count: Int, prefix: String = "seed", newest: Date = Date()) async throws {
        try await TestDatabase.withClient(database) { client in
            try await client.query("""
                INSERT INTO items (entrupy_id, customer_item_id, result, result_final, flag, brand, category, username,
                                   submitted_at, fetched_at, raw)
                SELECT \(prefix) || '-' || n, 'sku-' || \(prefix) || '-' || n,
                       (ARRAY['authentic', 'unknown', 'needs_review', 'not_supported'])[1 + n % 4], n % 4 <> 2,
                       (ARRAY['none', 'none', 'flagged', 'resolved', 'none'])[1 + n % 5],
                       (ARRAY['nike', 'adidas', 'louis_vuitton'])[1 + n % 3],
                       (ARRAY['sneakers', 'luxury'])[1 + n % 2], 'Org-user-' || (n % 7),
                       \(newest) - n * interval '1 minute', now(), '{}'::jsonb
                FROM generate_series(0, \(count - 1)) AS n
                """, logger: TestDatabase.logger)
        }
    }
}

extension TestRelay {
    func get(_ path: String, token: String?, headers: [(String, String)] = []) async throws -> Response {
        try await request(path, headers: (token.map { [("Authorization", "Bearer \($0)")] } ?? []) + headers)
    }

    func post(_ path: String, token: String?, json: String? = nil) async throws -> Response {
        var headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
        if json != nil { headers.append(("Content-Type", "application/json")) }
        return try await request(path, method: .POST, headers: headers, body: json.map { Array($0.utf8) })
    }
}

extension TestRelay.Response {
    /// The error message of a JSON error answer.
    var message: String? { (json?["error"] as? [String: Any])?["message"] as? String }
}
