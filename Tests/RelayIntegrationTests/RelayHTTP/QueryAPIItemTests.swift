import Foundation
import Testing
import RelayModel
import RelayStore

@Suite("Query API items, deliveries and events", .timeLimit(.minutes(3)))
struct QueryAPIItemTests {
    @Test func anItemShowsItsWholeHistoryAndSupportCanActOnIt() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.failingCallback(callbacks, schedule: "50ms,50ms")
            try await ReconcileStack.with(env: env) { stack async throws in
                let support = try await APIAccess.token(stack.database, role: .support)
                let consumer = try await APIAccess.token(stack.database, role: .consumer)
                let admin = try await APIAccess.token(stack.database, role: .admin)
                let id = try await stack.simulator.createItem("sku-history", result: "authentic", final: true)
                let dead = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .dead)
                let delivery = try #require(dead.first)
                let relay = stack.relay

                let detail = try #require(try await relay.get("/v1/items/\(id)", token: support).json)
                #expect(detail["entrupy_id"] as? String == id && detail["result"] as? String == "authentic")
                let transitions = detail["transitions"] as? [[String: Any]] ?? []
                #expect(transitions.map { $0["kind"] as? String } == ["item.created", "result.final"])
                let fetches = detail["reconciliations"] as? [[String: Any]] ?? []
                #expect(fetches.first?["source"] as? String == "webhook" && fetches.first?["outcome"] as? String == "created")
                #expect((detail["webhooks"] as? [[String: Any]])?.isEmpty == false)
                let deliveries = try #require(detail["deliveries"] as? [[String: Any]])
                #expect(deliveries.count == 1 && deliveries[0]["state"] as? String == "dead" && deliveries[0]["attempts"] as? Int == 3)
                let history = deliveries[0]["attempt_history"] as? [[String: Any]] ?? []
                #expect(history.map { $0["status_code"] as? Int } == [500, 500, 500])
                let kinds = (detail["timeline"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
                #expect(kinds.first == "webhook.received")
                #expect(kinds.contains("reconciled") && kinds.contains("result.final") && kinds.last == "delivery.dead", "\(kinds)")
                // By customer item ID too.
                #expect(try await relay.get("/v1/items/sku-history", token: support).json?["entrupy_id"] as? String == id)

                // A consumer reads the item but not where notifications went.
                let limited = try #require(try await relay.get("/v1/items/\(id)", token: consumer).json)
                #expect(limited["webhooks"] == nil && limited["deliveries"] == nil && limited["transitions"] != nil)

                // Deliveries: filtered, paged, retried with the same key.
                let listed = try await relay.get("/v1/deliveries?state=dead&item=\(id)", token: support)
                #expect((listed.json?["deliveries"] as? [[String: Any]])?.map { $0["id"] as? Int } == [Int(delivery.id)])
                #expect(listed.json?["next_cursor"] is NSNull)
                let retried = try await relay.post("/v1/deliveries/\(delivery.id)/retry", token: support)
                #expect(retried.status == 202, "\(retried.body)")
                #expect(try await eventually {
                    try await NotifyEnvironment.deliveries(stack.database, item: id).first?.attempts == 6
                })
                #expect(try callbacks.requests().filter { $0.webhookID == delivery.idempotencyKey }.count == 6)
                #expect(try await relay.post("/v1/deliveries/999999/retry", token: support).status == 404)

                // Reconcile on demand: a manual fetch shows up among the reconciliations.
                let reconcile = try await relay.post("/v1/items/\(id)/reconcile", token: support)
                #expect(reconcile.status == 202 && reconcile.json?["entrupy_id"] as? String == id)
                #expect(try await eventually {
                    try await stack.count("SELECT count(*) FROM reconciliations WHERE entrupy_id = '\(id)' AND source = 'manual'") == 1
                })

                // Raw events, for admins, filtered by item.
                let events = try await relay.get("/v1/events?entrupy_id=\(id)&limit=1", token: admin)
                #expect((events.json?["events"] as? [[String: Any]])?.first?["entrupy_id"] as? String == id)
                let missing = try await relay.get("/v1/items/nope", token: support)
                #expect(missing.status == 404 && missing.message == "no item with Entrupy ID or customer item ID \"nope\"")
            }
        }
    }

    @Test func sdkAuthorizationSignsStoresAndPassesOnLimits() async throws {
        try await ReconcileStack.with { stack async throws in
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            let relay = stack.relay
            func authorize(_ body: String) async throws -> TestRelay.Response {
                try await relay.post("/v1/sdk/authorize", token: consumer, json: body)
            }
            let invalid: [(String, String)] = [
                (#"{"sdk_authorization_request": "r", "unique_user_id": "short", "email": "a@example.com"}"#, "field \"unique_user_id\""),
                (#"{"sdk_authorization_request": "r", "unique_user_id": "user-0001"}"#, "field \"email\": is required"),
                (#"{"sdk_authorization_request": "", "unique_user_id": "user-0001", "email": "a@example.com"}"#, "field \"sdk_authorization_request\""),
                (#"{"sdk_authorization_request": "r", "unique_user_id": "user-0001", "email": "a@example.com", "nick": "x"}"#, "field \"nick\": unknown field"),
                (#"{"sdk_authorization_request": 5, "unique_user_id": "user-0001", "email": "a@example.com"}"#, "field \"sdk_authorization_request\": must be a string"),
                ("not json", "the body must be a JSON object"),
            ]
            for (body, message) in invalid {
                let response = try await authorize(body)
                #expect(response.status == 400 && response.message?.hasPrefix(message) == true, "\(body): \(response.body)")
            }

            let first = try await authorize(#"{"sdk_authorization_request": "req-1", "unique_user_id": "user-0001", "email": "ada@example.com", "first_name": "Ada"}"#)
            #expect(first.status == 200, "\(first.body)")
            #expect(first.json?["username"] as? String == "SimOrg-user-0001" && first.json?["conflict"] as? Bool == false)
            #expect((first.json?["signed_authorization_request"] as? String)?.isEmpty == false && first.json?["warning"] == nil)
            let changed = try await authorize(#"{"sdk_authorization_request": "req-2", "unique_user_id": "user-0001", "email": "other@example.com"}"#)
            #expect(changed.status == 200 && changed.json?["conflict"] as? Bool == true)
            #expect((changed.json?["warning"] as? String)?.contains("kept the first") == true)
            #expect(try await stack.count("SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-0001' AND username = 'SimOrg-user-0001' AND email = 'ada@example.com' AND authorizations = 2") == 1)

            // Absent names change nothing (Entrupy keeps the first ones; the old code wrote NULL over them).
            let noNames = try await authorize(#"{"sdk_authorization_request": "req-3", "unique_user_id": "user-0001", "email": "ada@example.com"}"#)
            #expect(noNames.status == 200 && noNames.json?["conflict"] as? Bool == false, "\(noNames.body)")
            #expect(try await stack.count("SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-0001' AND email = 'ada@example.com' AND first_name = 'Ada' AND authorizations = 3") == 1)

            // A user Entrupy already holds (registered by another backend): the relay's first call draws a 409.
            // The rejected details are not stored as if Entrupy kept them; the username is.
            let (direct, _) = try await stack.simulator.call(.POST, "/v2/integrations/authorize-user", .object([
                "sdk_authorization_request": .string("elsewhere"), "unique_user_id": .string("user-0002"),
                "email": .string("grace@example.com"), "first_name": .string("Grace"),
            ]), headers: [("Authorization", "Token \(TestSimulator.token)"), ("Api-Version", "1.4")])
            #expect(direct == 200)
            let rejected = try await authorize(#"{"sdk_authorization_request": "req-4", "unique_user_id": "user-0002", "email": "mallory@example.com", "first_name": "Mal"}"#)
            #expect(rejected.status == 200 && rejected.json?["conflict"] as? Bool == true, "\(rejected.body)")
            #expect(try await stack.count("SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-0002' AND username = 'SimOrg-user-0002' AND email IS NULL AND first_name IS NULL") == 1)
            // A call Entrupy accepts tells which details it holds.
            let accepted = try await authorize(#"{"sdk_authorization_request": "req-5", "unique_user_id": "user-0002", "email": "grace@example.com"}"#)
            #expect(accepted.status == 200 && accepted.json?["conflict"] as? Bool == false, "\(accepted.body)")
            #expect(try await stack.count("SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-0002' AND email = 'grace@example.com' AND first_name IS NULL AND conflict = false") == 1)

            // A 409 may name no username (Entrupy documents only the signed request in it): the caller still
            // gets the signed request, with the username the relay stored, and nothing stored changes.
            try await stack.simulator.configure(["authorize_conflict_username": .bool(false)])
            let unnamed = try await authorize(#"{"sdk_authorization_request": "req-6", "unique_user_id": "user-0001", "email": "eve@example.com"}"#)
            #expect(unnamed.status == 200 && unnamed.json?["conflict"] as? Bool == true, "\(unnamed.body)")
            #expect(unnamed.json?["username"] as? String == "SimOrg-user-0001")
            #expect((unnamed.json?["signed_authorization_request"] as? String)?.hasPrefix("signed.") == true)
            #expect(try await stack.count("SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-0001' AND username = 'SimOrg-user-0001' AND email = 'ada@example.com' AND conflict AND authorizations = 4") == 1)
            // A user the relay never saw: the signed request, and username null (nothing to store it under).
            let (registered, _) = try await stack.simulator.call(.POST, "/v2/integrations/authorize-user", .object([
                "sdk_authorization_request": .string("elsewhere"), "unique_user_id": .string("user-0003"), "email": .string("ivy@example.com"),
            ]), headers: [("Authorization", "Token \(TestSimulator.token)")])
            #expect(registered == 200)
            let unseen = try await authorize(#"{"sdk_authorization_request": "req-7", "unique_user_id": "user-0003", "email": "not-ivy@example.com"}"#)
            #expect(unseen.status == 200 && unseen.json?["conflict"] as? Bool == true, "\(unseen.body)")
            #expect(unseen.json?.keys.contains("username") == true && unseen.json?["username"] is NSNull, "\(unseen.body)")
            #expect(try await stack.count("SELECT count(*) FROM sdk_users WHERE unique_user_id = 'user-0003'") == 0)
            try await stack.simulator.configure(["authorize_conflict_username": .bool(true)])
            // No email rule stricter than Entrupy's: what it accepts, the relay passes on.
            let plainEmail = try await authorize(#"{"sdk_authorization_request": "req-8", "unique_user_id": "user-0004", "email": "ivy"}"#)
            #expect(plainEmail.status == 200, "\(plainEmail.body)")

            // Support staff find the user's items by either ID.
            try await TestDatabase.withClient(stack.database) { client in
                try await client.query("""
                    INSERT INTO items (entrupy_id, username, fetched_at, raw) VALUES ('sdk-item-1', 'SimOrg-user-0001', now(), '{}')
                    """, logger: TestDatabase.logger)
            }
            let found = try await relay.get("/v1/items?unique_user_id=user-0001", token: consumer)
            #expect((found.json?["items"] as? [[String: Any]])?.map { $0["entrupy_id"] as? String } == ["sdk-item-1"])

            // Entrupy's 429 is passed on with its Retry-After, and then answered at once while it lasts.
            try await stack.simulator.configure(["rate_limit_per_second": .number(1)])
            var limited: TestRelay.Response?
            for n in 0..<6 where limited == nil {
                let response = try await authorize(#"{"sdk_authorization_request": "r", "unique_user_id": "user-100\#(n)", "email": "u@example.com"}"#)
                if response.status == 429 { limited = response } else { #expect(response.status == 200, "\(response.body)") }
            }
            let refusal = try #require(limited)
            #expect(refusal.header("Retry-After") == "1" && refusal.message?.contains("rate limiting") == true)
        }
    }
}
