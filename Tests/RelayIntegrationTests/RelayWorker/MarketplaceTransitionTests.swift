import Foundation
import RelayModel
import Testing

/// Issue 45: transitions that mean something to a marketplace, end to end against the
/// simulator: a retake request fires once with its reasons, an item left in review past its
/// threshold fires `result.overdue` once (and not when the fetch shows it final), and a v2
/// item's template renders its certificate.
@Suite("Retakes, overdue results and v2 certificates", .timeLimit(.minutes(4)))
struct MarketplaceTransitionTests {
    static func rules(_ callbacks: TestCallbackServer) -> String {
        """
        rules:
          - name: marketplace
            when: {transition: [result.retake_requested, result.overdue]}
            notify:
              - webhook: {url: "\(callbacks.url("/ok"))", secret: "${CALLBACK_SECRET}"}
        """
    }

    @Test func aDataRequiredResultFiresRetakeRequestedOnceWithItsReasons() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            try await ReconcileStack.with(env: try NotifyEnvironment.make(rules: Self.rules(callbacks))) { stack async throws in
                let sim = stack.simulator
                let id = try await sim.createItem("sku-retake", result: "needs_review", final: false)
                #expect(try await stack.waitFor(id, result: "needs_review"))
                let retake: JSONValue = .object([
                    "result": .string("data_required"), "final": .bool(false), "customer_state": .string("awaiting_photos"),
                    "retake_reasons": .array([.string("Photo of the size tag is blurry"), .string("Insole photo missing")]),
                ])
                #expect(try await sim.call(.POST, "/_sim/items/\(id)/result", retake).0 == 200)
                #expect(try await stack.waitFor(id, result: "data_required"))
                let delivered = try await callbacks.waitForRequests(1, path: "/ok")
                let body = try #require(delivered.first?.body)
                #expect(body["type"]?.stringValue == "result.retake_requested" && body[path: "data.to"]?.stringValue == "data_required")
                #expect(body[path: "data.retake_reasons"]?.arrayValue?.compactMap(\.stringValue) == ["Photo of the size tag is blurry", "Insole photo missing"])
                #expect(body[path: "data.customer_state"]?.stringValue == "awaiting_photos")

                // The same result again (a second webhook, a re-fetch): nothing new.
                #expect(try await sim.call(.POST, "/_sim/items/\(id)/result", retake).0 == 200)
                #expect(try await eventually(timeout: .seconds(10)) {
                    try await stack.count("SELECT count(*) FROM reconciliations WHERE entrupy_id = '\(id)'") >= 3
                })
                #expect(try await stack.waitForIdleQueue())
                #expect(try await stack.timeline(id) == ["item.created", "result.changed", "result.retake_requested"])
                #expect(try callbacks.requests().count == 1)

                // The API shows the reasons; the change feed carries the transition.
                let support = try await APIAccess.token(stack.database, role: .support)
                let details = try #require(try await stack.relay.get("/v1/items/\(id)", token: support).json?["details"] as? [String: Any])
                #expect(details["retake_reasons"] as? [String] == ["Photo of the size tag is blurry", "Insole photo missing"])
                #expect(details["customer_state"] as? String == "awaiting_photos")
                let cookie = try await ConsoleSignIn.session(stack.relay, token: support)
                let page = try await stack.relay.request("/console/items/\(id)", headers: [("Cookie", cookie)])
                #expect(page.body.contains("Entrupy asks for new photos: Photo of the size tag is blurry; Insole photo missing (customer state: awaiting_photos)"))
                // The feed serves a change once every older transaction in the cluster has ended: under the
                // whole suite's load that can take a moment.
                #expect(try await eventually(timeout: .seconds(30)) {
                    let changes = try await stack.relay.get("/v1/changes?limit=100", token: support).json?["changes"] as? [[String: Any]] ?? []
                    return changes.filter { $0["kind"] as? String == "result.retake_requested" }.count == 1
                })
            }
        }
    }

    @Test func anItemLeftInReviewPastItsThresholdFiresOverdueOnceAndAFinalOneDoesNot() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules(callbacks), extra: [
                "ENTRUPY_RELAY_OVERDUE_AFTER": "1h,luxury=3h", "ENTRUPY_RELAY_OVERDUE_INTERVAL_SECONDS": "1",
            ])
            try await ReconcileStack.with(env: env) { stack async throws in
                let sim = stack.simulator
                let stuck = try await sim.createItem("sku-stuck", result: "needs_review", final: false)
                let done = try await sim.createItem("sku-done", result: "needs_review", final: false)
                #expect(try await stack.waitFor(stuck, result: "needs_review"))
                #expect(try await stack.waitFor(done, result: "needs_review"))
                // Never overdue: one unfinished for longer than the lookback (an upgrade's first pass
                // finds such), one whose flow was cancelled.
                let ancient = try await sim.createItem("sku-ancient", result: "needs_review", final: false)
                let cancelled = try await sim.createItem("sku-cancelled", result: "canceled", final: false)
                #expect(try await stack.waitFor(ancient, result: "needs_review"))
                #expect(try await stack.waitFor(cancelled, result: "canceled"))
                try await Self.backdate([ancient], hours: 24 * 8, stack)
                try await Self.backdate([cancelled], hours: 2, stack)
                // Entrupy finished one without telling us; both look two hours old to the relay.
                try await sim.setResult(done, "authentic", final: true, webhook: false)
                try await Self.backdate([stuck, done], hours: 2, stack)

                #expect(try await eventually(timeout: .seconds(20)) { try await stack.timeline(stuck).contains("result.overdue") })
                #expect(try await stack.waitFor(done, result: "authentic"))
                #expect(try await stack.timeline(done) == ["item.created", "result.changed", "result.final"])
                let delivered = try await callbacks.waitForRequests(1, path: "/ok")
                #expect(delivered.first?.body["type"]?.stringValue == "result.overdue")
                #expect(delivered.first?.body[path: "data.from"]?.stringValue == "needs_review" && delivered.first?.body[path: "data.to"]?.stringValue == "1h")

                // Still in review and still old: passes come and go, the overdue stays one.
                try await Self.backdate([stuck], hours: 2, stack)
                try await Task.sleep(for: .seconds(4))
                #expect(try await stack.waitForIdleQueue())
                #expect(try await stack.timeline(stuck).filter { $0 == "result.overdue" }.count == 1)
                #expect(try callbacks.requests().count == 1)
                #expect(try await stack.count("SELECT count(*) FROM item_overdue WHERE entrupy_id = '\(stuck)' AND threshold = '1h'") == 1)
                #expect(try await stack.count("SELECT count(*) FROM item_overdue") == 1)
                #expect(try await stack.count("SELECT count(*) FROM jobs WHERE kind = 'check_overdue'") == 2, "the stuck and the done item only")
                #expect(!(try await stack.timeline(ancient)).contains("result.overdue"))
                #expect(!(try await stack.timeline(cancelled)).contains("result.overdue"))
            }
        }
    }

    @Test func aV2ItemsTemplateRendersItsCertificate() async throws {
        try await TestSMTPServer.with { smtp async throws in
            let env = try NotifyEnvironment.make(rules: """
                rules:
                  - name: certificates
                    when: {transition: [result.final]}
                    notify:
                      - email: {to: [ops@example.com], subject: "certificate {{certificate_id}}", text: "{{certificate_url}}."}
                """, smtpPort: smtp.port, extra: ["ENTRUPY_RELAY_ENTRUPY_API_VERSION": "2"])
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-cert", result: "authentic", final: true)
                let mails = try await smtp.waitForMessages(1)
                #expect(mails.first?.header("Subject") == "certificate cert_\(id)")
            }
        }
    }

    static func backdate(_ ids: [String], hours: Int, _ stack: ReconcileStack) async throws {
        try await TestDatabase.withClient(stack.database) { client in
            try await client.query("UPDATE items SET submitted_at = now() - \(hours) * interval '1 hour' WHERE entrupy_id = ANY(\(ids))",
                                   logger: TestDatabase.logger)
        }
    }
}
