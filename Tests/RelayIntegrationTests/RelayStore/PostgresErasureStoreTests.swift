import EntrupyAPI
import Foundation
import Logging
import PostgresNIO
import RelayApp
import RelayModel
import RelayRules
import RelayRuntime
import RelayStore
import RelayWorker
import AsyncHTTPClient
import Testing

/// Erasure removes a person's data from every table it lives in, checked table by table in
/// SQL, while the item's result and the deliveries' records stay; and what is fetched for an
/// erased item later is stored without the people fields.
@Suite("Erasure", .timeLimit(.minutes(2)))
struct PostgresErasureStoreTests {
    static let logger = Logger(label: "erasure-tests")

    static func rules() throws -> RulesStore {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).yaml").path
        try """
            rules:
              - name: final
                when: {transition: [result.final]}
                notify:
                  - webhook: {url: "https://partner.example/hook", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try RulesStore(path: path, parser: RuleSetParser(secret: { _ in nil }))
    }

    static func strings(_ client: PostgresClient, _ query: PostgresQuery) async throws -> [String] {
        var values: [String] = []
        for try await value in try await client.query(query, logger: logger).decode(String.self) { values.append(value) }
        return values
    }

    /// Every table's rows whose text mentions `needle` (bytea bodies read as UTF-8), as `table:count`.
    static func mentions(_ needle: String, _ client: PostgresClient) async throws -> [String] {
        let tables = try await strings(client, "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
        var found: [String] = []
        for table in tables {
            let text = table == "webhook_events" ? "(w.*)::text || coalesce(convert_from(w.body, 'UTF8'), '')" : "(w.*)::text"
            let count = try await strings(client, PostgresQuery(unsafeSQL: """
                SELECT count(*)::text FROM "\(table)" w WHERE \(text) ILIKE '%' || $1 || '%'
                """, binds: { var b = PostgresBindings(); b.append(needle); return b }()))
            if count != ["0"] { found.append("\(table):\(count.first ?? "?")") }
        }
        return found
    }

    @Test func erasingByEmailReachesEveryTableAndKeepsTheFacts() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await TestSimulator.with(webhookURL: nil) { sim async throws in
                try await sim.configure(["rate_limit_per_second": .number(0)])
                var ids: [String: String] = [:]
                for (name, user) in [("sku-a1", "alice-entrupy"), ("sku-a2", "alice-entrupy"), ("sku-b1", "bob-entrupy")] {
                    let (status, json) = try await sim.call(.POST, "/_sim/items", .object([
                        "customer_item_id": .string(name), "username": .string(user), "result": .string("authentic"),
                        "final": .bool(true), "webhook": .bool(false),
                    ]))
                    #expect(status == 201)
                    ids[name] = try #require(json["entrupy_id"]?.stringValue)
                }
                let http = EntrupyAPIClient.makeHTTPClient()
                do {
                    try await Self.scenario(ids: ids, http: http, sim: sim, client: client)
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }

    static func scenario(ids: [String: String], http: HTTPClient, sim: TestSimulator, client: PostgresClient) async throws {
        let api = EntrupyAPIClient(configuration: .init(baseURL: sim.baseURL, token: TestSimulator.token, routes: .v1_4),
                                   http: http, budget: RateBudget(ratePerSecond: 1000), logger: Self.logger)
        let store = PostgresReconcileStore(client: client, logger: Self.logger)
        let pipeline = ReconcilePipeline(api: api, store: store, rules: try Self.rules(), logger: Self.logger)

        // The SDK users mirror links the organisation's people to the Entrupy usernames.
        try await client.query("""
            INSERT INTO sdk_users (unique_user_id, username, email, first_name, last_name)
            VALUES ('alice-0001', 'alice-entrupy', 'Alice@Example.com', 'Alice', 'Liddell'),
                   ('bob-00001', 'bob-entrupy', 'bob@example.com', 'Bob', 'Builder')
            """, logger: Self.logger)
        for id in ids.values.sorted() { _ = try await pipeline.reconcile(.entrupyID(id), source: .sweep, followUps: nil) }
        let a1 = try #require(ids["sku-a1"]), b1 = try #require(ids["sku-b1"])
        // Webhooks with bodies naming her, a delivery that was made (with the partner's reply), a fetch note.
        try await client.query("""
            INSERT INTO webhook_events (dedup_key, event_id, event_type, entrupy_id, state, verified_by, body, body_sha256)
            VALUES ('k1', 'ev1', 'session.completed', \(a1), 'processed', 'entrupy-signature',
                    convert_to('{"item":{"owner":{"user":{"username":"alice-entrupy"}}}}', 'UTF8'), 's1'),
                   ('k2', 'ev2', 'session.completed', \(b1), 'processed', 'entrupy-signature',
                    convert_to('{"item":{"owner":{"user":{"username":"bob-entrupy"}}}}', 'UTF8'), 's2')
            """, logger: Self.logger)
        try await client.query("""
            UPDATE deliveries SET state = 'delivered', attempts = 1, delivered_at = now() WHERE entrupy_id = \(a1)
            """, logger: Self.logger)
        try await client.query("""
            INSERT INTO delivery_attempts (delivery_id, attempt, started_at, duration_ms, outcome, status_code, response_excerpt)
            SELECT id, 1, now(), 3, 'delivered', 200, 'thanks alice-entrupy' FROM deliveries WHERE entrupy_id = \(a1)
            """, logger: Self.logger)
        try await client.query("UPDATE reconciliations SET note = 'alice-entrupy asked' WHERE entrupy_id = \(a1)", logger: Self.logger)
        // Support flagged her item with a comment naming her, and Bob's with one naming him.
        try await client.query("""
            INSERT INTO flag_requests (entrupy_id, reason, comment, requested_by, state)
            VALUES (\(a1), 'wrong_result', 'Alice Liddell says the stitching is fine', 'token sam', 'succeeded'),
                   (\(b1), 'wrong_result', 'bob-entrupy disputes it', 'token sam', 'succeeded')
            """, logger: Self.logger)
        #expect(try await Self.strings(client, "SELECT count(*)::text FROM deliveries WHERE payload::text ILIKE '%alice%'") == ["2"],
                "the payloads named her before (so removing them is tested)")
        #expect(try await Self.mentions("alice", client).count >= 5)

        let erasures = PostgresErasureStore(client: client, logger: Self.logger)
        let selector = try ErasureSelector.parse(uniqueUserID: nil, email: "ALICE@example.com", customerItemID: nil)
        let dry = try await erasures.erase(selector, requestedBy: "test", dryRun: true)
        #expect(dry.counts == ["sdk_users": 1, "items": 2, "webhook_bodies": 1, "deliveries_cancelled": 1, "delivery_payloads": 2,
                               "delivery_replies": 1, "reconciliation_notes": 1, "flag_comments": 1], "one of her two items' deliveries was pending")
        #expect(try await Self.mentions("alice", client).count >= 5, "a dry run changes nothing")
        let done = try await erasures.erase(selector, requestedBy: "test", dryRun: false)
        #expect(done.counts == dry.counts && done.id != nil)

        // Table by table: nothing of hers is left anywhere, and Bob's data is untouched.
        #expect(try await Self.mentions("alice", client) == [])
        #expect(try await Self.mentions("liddell", client) == [])
        #expect(try await Self.strings(client, "SELECT unique_user_id FROM sdk_users") == ["bob-00001"])
        #expect(try await Self.strings(client, "SELECT count(*)::text FROM items WHERE username = 'bob-entrupy' AND erased_at IS NULL") == ["1"])
        #expect(try await Self.strings(client, "SELECT body_removed FROM webhook_events WHERE body IS NULL") == ["erased"])
        // The facts stay: her items' results, timelines and the deliveries' records.
        #expect(try await Self.strings(client, """
            SELECT result || ':' || result_final::text || ':' || (username IS NULL)::text || ':' || (erased_at IS NOT NULL)::text
            FROM items WHERE entrupy_id <> \(b1) ORDER BY entrupy_id
            """) == ["authentic:true:true:true", "authentic:true:true:true"])
        #expect(try await Self.strings(client, """
            SELECT state || ':' || coalesce(payload_removed, '-') FROM deliveries WHERE entrupy_id <> \(b1) ORDER BY state
            """) == ["dead:erased", "delivered:erased"])
        #expect(try await Self.strings(client, "SELECT count(*)::text FROM item_events WHERE entrupy_id <> \(b1)") != ["0"])
        #expect(try await Self.strings(client, "SELECT selector || ':' || requested_by FROM erasures") == ["email:test"])
        // Her item's flag stays, without its comment, and no longer stands for a repeat; Bob's is untouched.
        #expect(try await Self.strings(client, """
            SELECT state || ':' || coalesce(comment, '-') || ':' || (erased_at IS NOT NULL)::text FROM flag_requests ORDER BY entrupy_id = \(b1)
            """) == ["succeeded:-:true", "succeeded:bob-entrupy disputes it:false"])

        // What is fetched for her item later is stored without her: the simulator still names her.
        _ = try await pipeline.reconcile(.entrupyID(a1), source: .sweep, followUps: nil)
        #expect(try await Self.mentions("alice", client) == [])
        #expect(try await Self.strings(client, "SELECT raw #>> '{owner,user}' FROM items WHERE entrupy_id = \(a1)") == ["[erased]"])
    }

    @Test func theAPIErasesForAdminsOnlyCountsFirstAndRefusesBadKeys() async throws {
        try await TestDatabase.with { db async throws in
            let admin = try await APIAccess.token(db, role: .admin, name: "dpo")
            let support = try await APIAccess.token(db, role: .support)
            try await TestDatabase.withClient(db) { client in
                try await client.query("""
                    INSERT INTO sdk_users (unique_user_id, username, email) VALUES ('carol-001', 'carol-entrupy', 'carol@example.com')
                    """, logger: Self.logger)
            }
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                #expect(try await relay.post("/v1/erasures", token: support, json: #"{"email": "carol@example.com"}"#).status == 403)
                #expect(try await relay.get("/v1/erasures", token: support).status == 403)
                for (body, message) in [
                    (#"{}"#, "give exactly one of unique_user_id, email, username and customer_item_id"),
                    (#"{"email": "carol@example.com", "unique_user_id": "carol-001"}"#, "give exactly one of unique_user_id, email, username and customer_item_id"),
                    (#"{"email": 7}"#, "field \"email\": must be a string"),
                    (#"{"email": "carol@example.com", "dry_run": "yes"}"#, "field \"dry_run\": must be true or false"),
                    (#"{"customer_item_id": "0", "username": null}"#, "field \"username\": must not be null; leave it out"),
                    (#"{"email": "carol@example.com", "dry_run": null}"#, "field \"dry_run\": must not be null; leave it out"),
                    (#"{"customer_item_id": "a\u0000b"}"#, "customer_item_id must be non-empty text without control characters"),
                    (#"{"name": "carol"}"#, "field \"name\": unknown field"),
                    (#"[1]"#, "the body must be a JSON object"),
                ] {
                    let refused = try await relay.post("/v1/erasures", token: admin, json: body)
                    #expect(refused.status == 400 && refused.message == message, "\(body): \(refused.body)")
                }
                let dry = try await relay.post("/v1/erasures", token: admin, json: #"{"email": "CAROL@example.com", "dry_run": true}"#)
                #expect(dry.status == 200, "\(dry.body)")
                #expect((dry.json?["counts"] as? [String: Any])?["sdk_users"] as? Int == 1)
                #expect(dry.json?["id"] is NSNull)
                let done = try await relay.post("/v1/erasures", token: admin, json: #"{"email": "carol@example.com"}"#)
                #expect(done.status == 201, "\(done.body)")
                #expect((done.json?["counts"] as? [String: Any])?["sdk_users"] as? Int == 1)
                #expect(done.json?["requested_by"] as? String == "token dpo")
                let listed = try await relay.get("/v1/erasures", token: admin)
                let records = try #require(listed.json?["erasures"] as? [[String: Any]])
                #expect(records.count == 1 && records.first?["selector"] as? String == "email")
                #expect(!listed.body.contains("carol"), "the record never holds the key")
            }
            #expect(try await TestDatabase.withClient(db) { client in
                try await Self.strings(client, "SELECT count(*)::text FROM sdk_users")
            } == ["0"])
        }
    }
}
