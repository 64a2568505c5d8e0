import Foundation
import PostgresNIO
import Testing
import RelayApp
import RelayModel

@Suite("Support staff: CLI and read-only SQL", .timeLimit(.minutes(3)))
struct SupportAccessTests {
    @Test func tokensAreShownOnceListedAndRevoked() async throws {
        try await TestDatabase.with { db async throws in
            let env = CommandLineTests.environment(db)
            let created = try await CommandLineTests.run(["tokens", "create", "--role", "support", "--name", "alice"], env: env)
            #expect(created.status == 0, "\(created.stderr)")
            let token = try #require(created.stdout.split(separator: "\n").last.map(String.init))
            #expect(token.hasPrefix("ert_") && token.count == 47)
            let json = try await CommandLineTests.run(["tokens", "create", "--role", "consumer", "--name", "shop", "--json"], env: env)
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            #expect((parsed["token"] as? String)?.hasPrefix("ert_") == true && parsed["role"] as? String == "consumer")
            // Only the hash is stored.
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM api_tokens WHERE token_hash = '\(APIToken.hash(token))'") == 1)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM api_tokens WHERE token_hash = '\(token)' OR hint = '\(token)'") == 0)

            let taken = try await CommandLineTests.run(["tokens", "create", "--role", "admin", "--name", "alice"], env: env)
            #expect(taken.status == 1 && taken.stderr.contains("already named \"alice\""))
            let badRole = try await CommandLineTests.run(["tokens", "create", "--role", "root", "--name", "x"], env: env)
            #expect(badRole.status != 0 && badRole.stderr.contains("'root' is invalid for '--role") && badRole.stderr.contains("'consumer'"))

            let listed = try await CommandLineTests.run(["tokens", "list"], env: env)
            #expect(listed.stdout.contains("alice") && listed.stdout.contains("support") && !listed.stdout.contains(token))
            #expect(try await CommandLineTests.run(["tokens", "revoke", "alice"], env: env).status == 0)
            let again = try await CommandLineTests.run(["tokens", "revoke", "alice"], env: env)
            #expect(again.status == 1 && again.stderr == "entrupy-relay: no active token named \"alice\"\n")
            let all = try await CommandLineTests.run(["tokens", "list", "--all", "--json"], env: env)
            let records = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [[String: Any]])
            #expect(records.count == 2 && records.contains { $0["name"] as? String == "alice" && !($0["revoked_at"] is NSNull) })
        }
    }

    @Test func itemsSearchPrintsATableOrTheAPIsJSON() async throws {
        try await TestDatabase.with { db async throws in
            try await APIAccess.seedItems(db, count: 30)
            let env = CommandLineTests.environment(db)
            let table = try await CommandLineTests.run(["items", "search", "--brand", "nike", "--brand", "adidas", "--flag", "flagged", "--limit", "3"], env: env)
            #expect(table.status == 0, "\(table.stderr)")
            let expected = try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE brand IN ('nike', 'adidas') AND flag = 'flagged'")
            #expect(table.stdout.hasPrefix("ENTRUPY ID"))
            #expect(table.stdout.contains("3 of \(expected) items; next page: --cursor "))
            let cursor = try #require(table.stdout.components(separatedBy: "--cursor ").last?.trimmingCharacters(in: .whitespacesAndNewlines))
            let next = try await CommandLineTests.run(["items", "search", "--brand", "nike", "--brand", "adidas", "--flag", "flagged",
                                                       "--limit", "3", "--cursor", cursor, "--json"], env: env)
            let page = try #require(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any])
            #expect(page["total_count"] as? Int == expected && (page["items"] as? [Any])?.count == min(3, expected - 3))
            let count = try await CommandLineTests.run(["items", "search", "--category", "luxury", "--count-only"], env: env)
            #expect(count.stdout == "15 items\n")
            let bad = try await CommandLineTests.run(["items", "search", "--flag", "maybe"], env: env)
            #expect(bad.status != 0 && bad.stderr.contains("--flag must be one of none, flagged, resolved"))
        }
    }

    @Test func theSupportRoleReadsOnlyTheViews() async throws {
        try await TestDatabase.with { db async throws in
            try await APIAccess.seedItems(db, count: 5)
            try await TestDatabase.execute(db, """
                INSERT INTO webhook_events (dedup_key, event_id, event_type, entrupy_id, state, verified_by, body, body_sha256,
                                            headers, client_address, request_id)
                VALUES ('support-test', 'seen-by-staff', 'session.completed', 'seed-1', 'processed', 'entrupy-signature',
                        convert_to('{}', 'UTF8'), 'x', '{}', '127.0.0.1', 'r-1')
                """)
            let staff = "staff_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(10)
            let admin = try TestDatabase.adminURL()
            try await DatabaseClientFactory.withClient(admin, logger: TestDatabase.logger) { client in
                try await client.query(PostgresQuery(unsafeSQL: "CREATE ROLE \(staff) LOGIN PASSWORD 'staff-pass' IN ROLE relay_support"),
                                       logger: TestDatabase.logger)
            }
            var asStaff = db
            asStaff.username = String(staff)
            asStaff.password = "staff-pass"
            do {
                #expect(try await TestDatabase.scalar(asStaff, "SELECT count(*) FROM support.items") == 5)
                // Staff see every row the views hold (the owner's count), not an empty or filtered view.
                for view in ["timeline", "deliveries", "delivery_attempts", "webhook_events"] {
                    let owned = try await TestDatabase.scalar(db, "SELECT count(*) FROM support.\(view)")
                    #expect(try await TestDatabase.scalar(asStaff, "SELECT count(*) FROM support.\(view)") == owned, "\(view)")
                }
                #expect(try await TestDatabase.scalar(asStaff, "SELECT count(*) FROM support.webhook_events WHERE event_id = 'seen-by-staff'") == 1)
                for forbidden in ["SELECT count(*) FROM items", "SELECT count(*) FROM api_tokens",
                                  "WITH d AS (DELETE FROM support.webhook_events RETURNING 1) SELECT count(*) FROM d",
                                  "WITH u AS (UPDATE support.items SET brand = 'x' RETURNING 1) SELECT count(*) FROM u",
                                  "CREATE TABLE support.mine (x int)"] {
                    do {
                        _ = try await TestDatabase.scalar(asStaff, forbidden)
                        Issue.record("allowed: \(forbidden)")
                    } catch let error as PSQLError {
                        #expect(["42501", "55000"].contains(error.serverInfo?[.sqlState]), "\(forbidden): \(String(reflecting: error))")
                    }
                }
            } catch {
                Issue.record("as the support role: \(String(reflecting: error))")
            }
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM items") == 5, "nothing was changed")
            try await DatabaseClientFactory.withClient(admin, logger: TestDatabase.logger) { client in
                try await client.query(PostgresQuery(unsafeSQL: "DROP OWNED BY \(staff)"), logger: TestDatabase.logger)
                try await client.query(PostgresQuery(unsafeSQL: "DROP ROLE \(staff)"), logger: TestDatabase.logger)
            }
        }
    }
}
