import Foundation
import RelayModel
import Testing

/// Silences and quiet hours end to end: the simulator makes items final, the relay reconciles
/// them, the rules fire, and a standardwebhooks-verifying endpoint sees what is sent.
@Suite("Silences and quiet hours", .timeLimit(.minutes(3)))
struct SilencesAndQuietHoursTests {
    static func rules(_ url: String, quiet: String? = nil) -> String {
        """
        rules:
          - name: partner
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "\(url)", secret: "${CALLBACK_SECRET}"}
        \(quiet.map { "    quiet_hours: \($0)" } ?? "")
        """
    }

    static func webhookIDs(_ callbacks: TestCallbackServer) throws -> Set<String> { Set(try callbacks.requests().map(\.webhookID)) }

    static func timeline(_ stack: ReconcileStack, _ id: String, _ token: String) async throws -> [[String: Any]] {
        try await stack.relay.get("/v1/items/\(id)", token: token).json?["timeline"] as? [[String: Any]] ?? []
    }

    @Test func aSilenceStopsMatchingDeliveriesUntilItExpiresAndARedriveSendsThem() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url("/ok")))
            try await ReconcileStack.with(env: env) { stack async throws in
                let support = try await APIAccess.token(stack.database, role: .support)
                let expires = Date().addingTimeInterval(10)
                let made = try await stack.relay.post("/v1/silences", token: support, json: """
                    {"rule": "partner", "matchers": {"brand": "NIKE", "transition": ["result.final"]}, "reason": "partner incident",
                     "expires_at": "\(ISODate.text(expires))"}
                    """)
                #expect(made.status == 201, "\(made.body)")
                let silenceID = try #require(made.json?["id"] as? Int)
                #expect((made.json?["author"] as? String)?.hasPrefix("token support-") == true, "\(made.body)")
                // A misspelt rule would silence nothing: refused, naming the rules there are.
                let misspelt = try await stack.relay.post("/v1/silences", token: support, json: #"{"rule": "partnr", "reason": "r", "duration": "1h"}"#)
                #expect(misspelt.status == 400, "\(misspelt.body)")
                #expect(misspelt.message?.contains(#"no rule named "partnr" in the rules file (its rules: partner)"#) == true, "\(misspelt.body)")

                let nike = try await stack.simulator.createItem("sku-silenced", brand: "nike", result: "authentic", final: true)
                let adidas = try await stack.simulator.createItem("sku-heard", brand: "adidas", result: "authentic", final: true)
                let silenced = try await NotifyEnvironment.waitForDeliveries(stack.database, item: nike, count: 1, state: .silenced)
                #expect(silenced.first?.silenceID == Int64(silenceID))
                let heard = try await NotifyEnvironment.waitForDeliveries(stack.database, item: adidas, count: 1, state: .delivered)
                #expect(try Self.webhookIDs(callbacks) == [try #require(heard.first).idempotencyKey], "only the adidas item was sent")

                // Listed as silenced, by the `state` filter of the deliveries search.
                let listed = try await stack.relay.get("/v1/deliveries?state=silenced", token: support)
                let rows = try #require(listed.json?["deliveries"] as? [[String: Any]])
                #expect(rows.map { $0["entrupy_id"] as? String } == [nike])
                #expect(rows.first?["silence_id"] as? Int == silenceID)
                // On the item's timeline and page.
                #expect(try await Self.timeline(stack, nike, support).contains { $0["kind"] as? String == "delivery.silenced"
                    && ($0["summary"] as? String)?.hasSuffix("silenced by silence \(silenceID)") == true })

                // Once it has expired, it stops nothing new.
                try await Task.sleep(for: .seconds(max(0, expires.timeIntervalSinceNow) + 0.5))
                let later = try await stack.simulator.createItem("sku-after", brand: "nike", result: "authentic", final: true)
                _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: later, count: 1, state: .delivered)
                #expect(try await NotifyEnvironment.deliveries(stack.database, item: nike).first?.state == .silenced,
                        "what it silenced stays silenced")

                // A redrive sends the silenced delivery, with its idempotency key.
                let delivery = try #require(silenced.first)
                let retried = try await stack.relay.post("/v1/deliveries/\(delivery.id)/retry", token: support)
                #expect(retried.status == 202, "\(retried.body)")
                _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: nike, count: 1, state: .delivered)
                #expect(try Self.webhookIDs(callbacks).contains(delivery.idempotencyKey))
            }
        }
    }

    @Test func aSilenceStopsTheBacklogAlreadyQueuedAndIsExpiredEarly() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            // The target fails: the delivery waits for its retry when the silence is made (longer than
            // the two seconds a worker keeps its copy of the silences).
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url("/fail")), schedule: "4s,4s,4s,4s",
                                                 extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                let support = try await APIAccess.token(stack.database, role: .support)
                let id = try await stack.simulator.createItem("sku-backlog", result: "authentic", final: true)
                _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .failed)
                let made = try await stack.relay.post("/v1/silences", token: support,
                                                      json: #"{"matchers": {"customer_item_id": "sku-backlog"}, "reason": "r", "duration": "1h"}"#)
                #expect(made.status == 201, "\(made.body)")
                let silenced = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .silenced)
                #expect(silenced.first?.attempts == 1, "no attempt after the silence")

                let silenceID = try #require(made.json?["id"] as? Int)
                let ended = try await stack.relay.request("/v1/silences/\(silenceID)", method: .DELETE, headers: [("Authorization", "Bearer \(support)")])
                #expect(ended.status == 200, "\(ended.body)")
                #expect(ended.json?["status"] as? String == "expired")
                #expect((ended.json?["expired_by"] as? String)?.hasPrefix("token ") == true)
                let again = try await stack.relay.post("/v1/silences/\(silenceID)/expire", token: support)
                #expect(again.status == 409)
                let listed = try await stack.relay.get("/v1/silences?active=true", token: support)
                #expect((listed.json?["silences"] as? [Any])?.isEmpty == true, "kept, but no longer active")
                let all = try await stack.relay.get("/v1/silences", token: support)
                #expect((all.json?["silences"] as? [Any])?.count == 1)
            }
        }
    }

    @Test func hostileSilenceRequestsGetJSONErrors() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let support = try await APIAccess.token(stack.database, role: .support)
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            let past = ISODate.text(Date().addingTimeInterval(-60))
            let tomorrow = String(ISODate.text(Date().addingTimeInterval(86_400)).prefix(10))
            let cases: [(String, Int, String)] = [
                ("{not json", 400, "JSON object"),
                (#"{"rule": "partner", "reason": "r"}"#, 400, "expires_at"),
                (#"{"rule": "partner", "reason": "r", "expires_at": "\#(past)"}"#, 400, "expires_at"),
                (#"{"rule": "partner", "reason": "r", "duration": "2h", "colour": "red"}"#, 400, "colour"),
                (#"{"matchers": {"colour": "red"}, "reason": "r", "duration": "2h"}"#, 400, "matchers.colour"),
                (#"{"matchers": {"brand": 3}, "reason": "r", "duration": "2h"}"#, 400, "matchers.brand"),
                (#"{"reason": "r", "duration": "2h"}"#, 400, "matchers"),
                (#"{"rule": "partner", "duration": "2h"}"#, 400, "reason"),
                (#"{"rule": "partner", "reason": "r", "duration": "200d"}"#, 400, "expires_at"),
                (#"{"rule": "partner", "reason": "r", "expires_at": "tomorrow"}"#, 400, "expires_at"),
                // The document's date-time format: a bare date or epoch seconds, which other routes take, is not one.
                (#"{"rule": "partner", "reason": "r", "starts_at": "\#(tomorrow)", "duration": "1d"}"#, 400, "starts_at"),
                (#"{"rule": "partner", "reason": "r", "expires_at": "4102444800"}"#, 400, "expires_at"),
                ("[]", 400, "JSON object"),
            ]
            for (body, status, field) in cases {
                let answer = try await stack.relay.post("/v1/silences", token: support, json: body)
                #expect(answer.status == status, "\(body): \(answer.body)")
                #expect(answer.message?.contains(field) == true, "\(body): \(answer.body)")
            }
            #expect(try await stack.relay.post("/v1/silences", token: consumer, json: #"{"rule": "p", "reason": "r", "duration": "1h"}"#).status == 403)
            #expect(try await stack.relay.get("/v1/silences/99", token: support).status == 404)
            #expect(try await stack.relay.get("/v1/silences/x", token: support).status == 400)
            #expect(try await stack.relay.get("/v1/silences?active=maybe", token: support).status == 400)
            #expect(try await stack.relay.post("/v1/silences/99/expire", token: support).status == 404)
            #expect(try await stack.count("SELECT count(*) FROM silences") == 0)
        }
    }

    @Test func quietHoursHoldDeliveriesAndReleaseThemWhenTheWindowEnds() async throws {
        // A window that began a minute ago and ends 20 seconds from now, in UTC with seconds: the
        // stack's start and the reconcile must fit inside it on a busy machine (8 s once did not).
        let now = Date()
        let from = now.addingTimeInterval(-60), to = now.addingTimeInterval(20)
        func clock(_ date: Date) -> String {
            let seconds = Int(date.timeIntervalSince1970.rounded(.down)) % 86_400
            return String(format: "%02d:%02d:%02d", seconds / 3_600, seconds % 3_600 / 60, seconds % 60)
        }
        let quiet = #"{from: "\#(clock(from))", to: "\#(clock(to))", time_zone: UTC}"#
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks.url("/ok"), quiet: quiet))
            try await ReconcileStack.with(env: env) { stack async throws in
                let support = try await APIAccess.token(stack.database, role: .support)
                let id = try await stack.simulator.createItem("sku-night", result: "authentic", final: true)
                #expect(try await eventually(timeout: .seconds(15)) {
                    try await NotifyEnvironment.deliveries(stack.database, item: id).first?.quietUntil != nil
                })
                let listed = try await stack.relay.get("/v1/deliveries?item=\(id)", token: support)
                let row = try #require((listed.json?["deliveries"] as? [[String: Any]])?.first)
                #expect(row["state"] as? String == "pending")
                let until = try #require((row["quiet_until"] as? String).flatMap(ISODate.parse))
                #expect(abs(until.timeIntervalSince(to)) < 1.5, "held until the window ends")
                #expect(try callbacks.requests().isEmpty, "nothing is sent inside the window")
                #expect(try await Self.timeline(stack, id, support).contains { $0["kind"] as? String == "delivery.quiet"
                    && ($0["summary"] as? String)?.contains("held for quiet hours until") == true })

                let delivered = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .delivered,
                                                                              timeout: .seconds(45))
                let sent = try #require(try callbacks.requests().first)
                #expect(sent.receivedAt >= to.timeIntervalSince1970 - 1.0, "released when the window ends, not before")
                #expect(delivered.first?.attempts == 1, "a hold is no attempt")
            }
        }
    }
}
