import EntrupyAPI
import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayRuntime
import RelayStore
import RelayWorker
import Testing

/// Issue 42, finding 4: an erasure reaches what the items table does not know. Webhooks whose
/// item was never stored, an erasure that matches nothing, an item first fetched after the
/// erasure, and v2 items that name their submitter only by `owner.user_id`: each against real
/// PostgreSQL, checked in SQL.
@Suite("Erasure beyond the items table", .timeLimit(.minutes(2)))
struct ErasureReachTests {
    static let logger = Logger(label: "erasure-reach-tests")

    static func strings(_ client: PostgresClient, _ query: PostgresQuery) async throws -> [String] {
        try await PostgresErasureStoreTests.strings(client, query)
    }

    static func insertWebhook(_ client: PostgresClient, key: String, entrupyID: String?, customerItemID: String?, body: String) async throws {
        try await client.query("""
            INSERT INTO webhook_events (dedup_key, event_id, event_type, entrupy_id, customer_item_id, state, verified_by, body, body_sha256)
            VALUES (\(key), \(key), 'session.completed', \(entrupyID), \(customerItemID), 'queued', 'entrupy-signature',
                    convert_to(\(body), 'UTF8'), \(key))
            """, logger: logger)
    }

    static func erase(_ client: PostgresClient, _ selector: ErasureSelector) async throws -> ErasureReport {
        try await PostgresErasureStore(client: client, logger: logger).erase(selector, requestedBy: "test", dryRun: false)
    }

    @Test func webhooksWhoseItemWasNeverStoredAreErased() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await client.query("""
                INSERT INTO sdk_users (unique_user_id, username, email) VALUES ('alice-0001', 'alice-entrupy', 'alice@example.com')
                """, logger: Self.logger)
            // Her session's webhook (the item not found yet), a later one about the same session
            // that names only its ID, a customer item ID's webhook, and Bob's: no item stored for any.
            try await Self.insertWebhook(client, key: "k1", entrupyID: "ENT-NEVER-1", customerItemID: nil, body: """
                {"event":"session.completed","data":{"item":{"entrupy_id":"ENT-NEVER-1","owner":{"user_id":"usr_41","user":{"username":"alice-entrupy"}}}}}
                """)
            try await Self.insertWebhook(client, key: "k2", entrupyID: "ENT-NEVER-1", customerItemID: nil, body: """
                {"event":"authentication.changed","data":{"entrupy_id":"ENT-NEVER-1","note":"ask usr_41"}}
                """)
            try await Self.insertWebhook(client, key: "k3", entrupyID: nil, customerItemID: "sku-gone", body: """
                {"event":"session.completed","data":{"item":{"customer_item_id":"sku-gone","owner":{"user":{"username":"carol-entrupy"}}}}}
                """)
            try await Self.insertWebhook(client, key: "k4", entrupyID: "ENT-NEVER-2", customerItemID: "sku-kept", body: """
                {"event":"session.completed","data":{"item":{"entrupy_id":"ENT-NEVER-2","owner":{"user":{"username":"bob-entrupy"}}}}}
                """)
            #expect(try await Self.strings(client, "SELECT count(*)::text FROM items") == ["0"])

            let byEmail = try await Self.erase(client, try ErasureSelector.parse(uniqueUserID: nil, email: "alice@example.com", customerItemID: nil))
            #expect(byEmail.counts["webhook_bodies"] == 2, "\(byEmail.counts)")
            let byItem = try await Self.erase(client, try ErasureSelector.parse(uniqueUserID: nil, email: nil, customerItemID: "sku-gone"))
            #expect(byItem.counts["webhook_bodies"] == 1, "\(byItem.counts)")

            #expect(try await Self.strings(client, """
                SELECT dedup_key || ':' || coalesce(body_removed, 'kept') FROM webhook_events ORDER BY dedup_key
                """) == ["k1:erased", "k2:erased", "k3:erased", "k4:kept"])
            #expect(try await PostgresErasureStoreTests.mentions("alice", client) == [])
            #expect(try await PostgresErasureStoreTests.mentions("carol", client) == [])
        }
    }

    @Test func anErasureThatMatchesNothingIsRecordedAndAnsweredAsSuch() async throws {
        try await TestDatabase.with { db async throws in
            let admin = try await APIAccess.token(db, role: .admin, name: "dpo")
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                let dry = try await relay.post("/v1/erasures", token: admin, json: #"{"username": "nobody-here", "dry_run": true}"#)
                #expect(dry.status == 200 && dry.json?["outcome"] as? String == "matched_nothing", "\(dry.body)")
                let done = try await relay.post("/v1/erasures", token: admin, json: #"{"username": "nobody-here"}"#)
                #expect(done.status == 201 && done.json?["outcome"] as? String == "matched_nothing", "\(done.body)")
                let listed = try await relay.get("/v1/erasures", token: admin)
                let records = try #require(listed.json?["erasures"] as? [[String: Any]])
                #expect(records.count == 1 && records.first?["outcome"] as? String == "matched_nothing", "\(listed.body)")
            }
            #expect(try await TestDatabase.withClient(db) { client in
                try await Self.strings(client, "SELECT to_jsonb(e) ->> 'outcome' FROM erasures e")
            } == ["matched_nothing"])
        }
    }

    @Test func anItemFirstFetchedAfterItsSubmittersErasureIsStoredWithoutPeople() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            try await TestSimulator.with(webhookURL: nil) { sim async throws in
                try await sim.configure(["rate_limit_per_second": .number(0)])
                let (status, json) = try await sim.call(.POST, "/_sim/items", .object([
                    "customer_item_id": .string("sku-late"), "username": .string("alice-entrupy"), "result": .string("authentic"),
                    "final": .bool(true), "webhook": .bool(false),
                ]))
                #expect(status == 201)
                let id = try #require(json["entrupy_id"]?.stringValue)
                // She asks to be erased before the relay ever fetched her item.
                try await client.query("""
                    INSERT INTO sdk_users (unique_user_id, username, email) VALUES ('alice-0001', 'alice-entrupy', 'alice@example.com')
                    """, logger: Self.logger)
                _ = try await Self.erase(client, try ErasureSelector.parse(uniqueUserID: "alice-0001", email: nil, customerItemID: nil))
                // Then her session's webhook arrives, and its reconcile fetches the item (v2, the default).
                try await Self.insertWebhook(client, key: "k-late", entrupyID: id, customerItemID: "sku-late", body: """
                    {"event":"session.completed","data":{"item":{"entrupy_id":"\(id)","owner":{"user":{"username":"alice-entrupy"}}}}}
                    """)
                let event = try #require(try await Self.strings(client, "SELECT id::text FROM webhook_events").first.flatMap { Int64($0) })
                let http = EntrupyAPIClient.makeHTTPClient()
                do {
                    let api = EntrupyAPIClient(configuration: .init(baseURL: sim.baseURL, token: TestSimulator.token, routes: .v2),
                                               http: http, budget: RateBudget(ratePerSecond: 1000), logger: Self.logger)
                    let pipeline = ReconcilePipeline(api: api, store: PostgresReconcileStore(client: client, logger: Self.logger),
                                                     rules: try PostgresErasureStoreTests.rules(), logger: Self.logger)
                    let applied = try await pipeline.reconcile(.entrupyID(id), source: .webhook(eventID: event), followUps: nil)
                    #expect(applied.deliveries == 1, "the result still notifies the partner, without her")
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    throw error
                }
                #expect(try await Self.strings(client, """
                    SELECT coalesce(username, '-') || ':' || coalesce(raw #>> '{owner,user}', '-') || ':' || coalesce(raw #>> '{owner,user_id}', '-')
                           || ':' || (erased_at IS NOT NULL)::text || ':' || coalesce(result, '-') FROM items
                    """) == ["-:[erased]:[erased]:true:authentic"])
                #expect(try await PostgresErasureStoreTests.mentions("alice", client) == [], "no table holds her: items, payloads, webhook bodies")
            }
        }
    }

    /// A v2 item as Entrupy documents it: the submitter is `owner.user_id`, no username.
    static func v2Item(_ id: String, userID: String, username: String?) throws -> EntrupyItem {
        let user = username.map { #","user":{"username":"\#($0)"}"# } ?? ""
        return try EntrupyItemParser.parse(try JSONValue.parse(Array("""
            {"entrupy_id":"\(id)","status":{"result":{"id":"authentic","final":true}},
             "properties":{"customer_item_id":"sku-\(id)"},"owner":{"organization_id":"org_1","user_id":"\(userID)"\(user)}}
            """.utf8)))
    }

    @Test func anErasureByPersonFindsTheirV2ItemsByOwnerUserID() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            // One of her items still names her username beside her user ID (it links the two);
            // the other names only the user ID, as v2 items do. Bob's names only his.
            for item in [try Self.v2Item("V2-A", userID: "usr_41", username: "alice-entrupy"),
                         try Self.v2Item("V2-B", userID: "usr_41", username: nil),
                         try Self.v2Item("V2-C", userID: "usr_88", username: nil)] {
                let change = ReconcileChange(item: item, observedAt: try await store.clock(), source: .sweep, basedOn: nil,
                                             transitions: TransitionDiffer.diff(from: nil, to: item.snapshot), deliveries: [])
                #expect(try await store.commit(change, followUps: nil) != nil)
            }
            #expect(try await Self.strings(client, "SELECT entrupy_id FROM items WHERE username IS NULL ORDER BY 1") == ["V2-B", "V2-C"])
            try await client.query("""
                INSERT INTO sdk_users (unique_user_id, username, email) VALUES ('alice-0001', 'alice-entrupy', 'alice@example.com')
                """, logger: Self.logger)

            let report = try await Self.erase(client, try ErasureSelector.parse(uniqueUserID: "alice-0001", email: nil, customerItemID: nil))
            #expect(report.counts["items"] == 2, "\(report.counts)")
            #expect(try await Self.strings(client, """
                SELECT entrupy_id || ':' || (raw #>> '{owner,user_id}') || ':' || (erased_at IS NOT NULL)::text FROM items ORDER BY 1
                """) == ["V2-A:[erased]:true", "V2-B:[erased]:true", "V2-C:usr_88:false"])
        }
    }

    /// A v2 item that names its submitter only by a user ID no other item links to a username
    /// is still hers when a webhook about it named her: the item is erased with the webhook.
    @Test func anItemKnownOnlyThroughAWebhookThatNamedThePersonIsErased() async throws {
        try await TestDatabase.withFresh { _, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let item = try Self.v2Item("V2-W", userID: "usr_57", username: nil)
            let change = ReconcileChange(item: item, observedAt: try await store.clock(), source: .sweep, basedOn: nil,
                                         transitions: TransitionDiffer.diff(from: nil, to: item.snapshot), deliveries: [])
            #expect(try await store.commit(change, followUps: nil) != nil)
            try await Self.insertWebhook(client, key: "w1", entrupyID: "V2-W", customerItemID: nil, body: """
                {"event":"session.completed","data":{"item":{"entrupy_id":"V2-W","owner":{"user":{"username":"dana-entrupy"}}}}}
                """)
            let report = try await Self.erase(client, try ErasureSelector.parse(uniqueUserID: nil, email: nil, username: "dana-entrupy", customerItemID: nil))
            #expect(report.counts["items"] == 1 && report.counts["webhook_bodies"] == 1, "\(report.counts)")
            #expect(try await Self.strings(client, """
                SELECT entrupy_id || ':' || (raw #>> '{owner,user_id}') || ':' || (erased_at IS NOT NULL)::text FROM items
                """) == ["V2-W:[erased]:true"])
            #expect(try await PostgresErasureStoreTests.mentions("usr_57", client) == [])
        }
    }
}
