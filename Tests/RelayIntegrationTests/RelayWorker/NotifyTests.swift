import Foundation
import RelayModel
import PostgresNIO
import RelayStore
import Testing

/// Transitions to notifications, end to end: the simulator changes an item, the relay
/// reconciles it, the rules fire, and aiosmtpd and a standardwebhooks-verifying endpoint
/// receive what was sent.
@Suite("Notifications through the outbox", .timeLimit(.minutes(3)))
struct NotifyTests {
    static func rules(callback: String, brand: String = "nike") -> String {
        """
        rules:
          - name: authentic-mail
            when:
              transition: [result.final]
              result: [authentic]
              brand: [\(brand)]
            notify:
              - email:
                  to: [ops@example.com]
                  subject: "{{customer_item_id}} is {{result}}"
                  text: "Item {{entrupy_id}} ({{brand}}) is {{result}}."
                  html: "<p>Item <b>{{customer_item_id}}</b> is {{result}}</p>"
              - webhook:
                  url: \(callback)
                  secret: ${CALLBACK_SECRET}
                  headers: {X-Partner: acme}
            continue: true
          - name: unknown-mail
            when: {transition: [result.final], result: [unknown]}
            notify:
              - email: {to: [unknown@example.com], subject: "unknown {{customer_item_id}}", text: "."}
        """
    }

    @Test func matchingResultSendsEmailAndVerifiedCallback() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            try await TestSMTPServer.with { smtp async throws in
                let env = try NotifyEnvironment.make(rules: Self.rules(callback: callbacks.url("/ok")), smtpPort: smtp.port)
                try await ReconcileStack.with(env: env) { stack async throws in
                    let id = try await stack.simulator.createItem("sku-mail")
                    let other = try await stack.simulator.createItem("sku-other", brand: "adidas")
                    #expect(try await stack.waitFor(id, result: "needs_review"))
                    // The submitter is in the SDK users mirror: the callback names them by the
                    // organisation's own ID, looked up once a rule fires.
                    try await TestDatabase.withClient(stack.database) { client in
                        let rows = try await client.query("SELECT username FROM items WHERE entrupy_id = \(id)", logger: TestDatabase.logger)
                        var username: String?
                        for try await row in rows { username = try row.decode(String?.self) }
                        let submitter = try #require(username, "the simulator's item has no username")
                        try await client.query("""
                            INSERT INTO sdk_users (unique_user_id, username, email, first_name, last_name)
                            VALUES ('emp-7', \(submitter), 'ann@example.com', 'Ann', 'Lee')
                            """, logger: TestDatabase.logger)
                    }
                    try await stack.simulator.setResult(id, "authentic", final: true)
                    try await stack.simulator.setResult(other, "authentic", final: true)
                    let delivered = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 2, state: .delivered)
                    #expect(delivered.count == 2)
                    #expect(try await stack.waitFor(other, result: "authentic"))
                    #expect(try await stack.waitForIdleQueue())

                    let mails = try smtp.messages()
                    #expect(mails.count == 1, "one email for the matching item, none for the adidas one")
                    let mail = try #require(mails.first)
                    #expect(mail.recipients == ["ops@example.com"])
                    #expect(mail.header("Subject") == "sku-mail is authentic")
                    let email = try #require(delivered.first { $0.channel == .email })
                    #expect(mail.header("Message-ID") == "<\(email.idempotencyKey)@example.com>")
                    #expect(mail.header("Content-Type")?.hasPrefix("multipart/alternative") == true)

                    let requests = try callbacks.requests()
                    #expect(requests.count == 1)
                    let request = try #require(requests.first)
                    #expect(request.verified, "standardwebhooks rejected it: \(request.error ?? "")")
                    let webhook = try #require(delivered.first { $0.channel == .webhook })
                    #expect(request.webhookID == webhook.idempotencyKey)
                    #expect(request.body["type"]?.stringValue == "result.final")
                    #expect(request.body["data"]?["entrupy_id"]?.stringValue == id)
                    #expect(request.body["data"]?["customer_item_id"]?.stringValue == "sku-mail")
                    #expect(request.body["data"]?["unique_user_id"]?.stringValue == "emp-7")
                    #expect(request.headers["x-partner"]?.stringValue == "acme")
                    #expect(try await NotifyEnvironment.deliveries(stack.database, item: other).isEmpty)
                }
            }
        }
    }

    @Test func flakyTargetKeepsOneWebhookIDAcrossRetries() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules(callback: callbacks.url("/flaky/2")))
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-flaky", result: "authentic", final: true)
                let requests = try await callbacks.waitForRequests(3)
                #expect(requests.map(\.status) == [500, 500, 200])
                #expect(Set(requests.map(\.webhookID)).count == 1)
                #expect(requests.allSatisfy { $0.verified })
                #expect(try await eventually {
                    try await NotifyEnvironment.deliveries(stack.database, item: id).contains { $0.channel == .webhook && $0.state == .delivered }
                })
                let webhook = try #require(try await NotifyEnvironment.deliveries(stack.database, item: id).first { $0.channel == .webhook })
                #expect(webhook.state == .delivered)
                #expect(webhook.attempts == 3)
                let attempts = try await NotifyEnvironment.attempts(stack.database, delivery: webhook.id)
                #expect(attempts.map(\.statusCode) == [500, 500, 200])
                #expect(attempts.map(\.outcome) == [.failed, .failed, .delivered])
                #expect(attempts.first?.responseExcerpt?.contains("500") == true)
            }
        }
    }

    @Test func failingTargetGoesDeadAndIsRedriven() async throws {
        let rules = """
            rules:
              - name: always-failing
                notify:
                  - webhook: {url: "TARGET/fail", secret: "${CALLBACK_SECRET}"}
                  - webhook: {url: "TARGET/gone", secret: "${CALLBACK_SECRET}"}
            """
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: rules.replacingOccurrences(of: "TARGET", with: callbacks.url("")), schedule: "50ms,50ms",
                                                 extra: NotifyEnvironment.withoutBreaker)
            try await ReconcileStack.with(env: env) { stack async throws in
                // A new item with a final result makes two transitions; the rule fires for each.
                let id = try await stack.simulator.createItem("sku-dead", result: "authentic", final: true)
                let dead = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 4, state: .dead)
                #expect(dead.count == 4)
                // Targets show only scheme and host: the rule's action tells them apart.
                let failing = dead.filter { $0.actionIndex == 0 }
                let gone = dead.filter { $0.actionIndex == 1 }
                #expect(failing.allSatisfy { $0.attempts == 3 })
                #expect(gone.allSatisfy { $0.attempts == 1 }, "410 is final at once")
                #expect(gone.first?.lastError?.contains("410") == true)

                let target = try #require(failing.first)
                let outcome = try await TestDatabase.withClient(stack.database) { client in
                    try await PostgresDeliveryStore(client: client, logger: TestDatabase.logger).retry(id: target.id)
                }
                #expect(outcome == .queued)
                #expect(try await eventually {
                    let record = try await NotifyEnvironment.deliveries(stack.database, item: id).first { $0.id == target.id }
                    return record?.attempts == 6 && record?.state == .dead
                })
                let sameID = try callbacks.requests().filter { $0.webhookID == target.idempotencyKey }
                #expect(sameID.count == 6, "the redrive keeps the idempotency key")

                // The partner quotes the webhook-id: support finds that one delivery by it, in the API and the CLI.
                let support = try await APIAccess.token(stack.database, role: .support)
                let found = try await stack.relay.get("/v1/deliveries?webhook_id=\(target.idempotencyKey)", token: support)
                let listed = try #require(found.json?["deliveries"] as? [[String: Any]], "\(found.body)")
                #expect(listed.map { $0["id"] as? Int } == [Int(target.id)])
                #expect(listed.first?["idempotency_key"] as? String == target.idempotencyKey)
                let none = try await stack.relay.get("/v1/deliveries?webhook_id=dlv_00000000000000000000000000000000", token: support)
                #expect((none.json?["deliveries"] as? [Any])?.isEmpty == true)
                let cli = try await CommandLineTests.run(["deliveries", "list", "--webhook-id", target.idempotencyKey, "--json"],
                                                         env: CommandLineTests.environment(stack.database))
                let rows = JSONValue(jsonText: cli.stdout)?.arrayValue ?? []
                #expect(cli.status == 0 && rows.count == 1 && rows.first?["id"]?.doubleValue == Double(target.id), "\(cli.stdout) \(cli.stderr)")

                // Bulk redrive: the count first, then the same deliveries retried, and the action recorded.
                let filter = #"{"rule": "always-failing", "item": "\#(id)""#
                let dry = try await stack.relay.post("/v1/deliveries/retry", token: support, json: filter + #", "dry_run": true}"#)
                #expect(dry.status == 200 && dry.json?["matched"] as? Int == 4 && dry.json?["id"] is NSNull, "\(dry.body)")
                let unmatched = try await stack.relay.post("/v1/deliveries/retry", token: support, json: #"{"rule": "no-such-rule", "dry_run": true}"#)
                #expect(unmatched.json?["matched"] as? Int == 0)
                let bad = try await stack.relay.post("/v1/deliveries/retry", token: support,
                                                     json: #"{"since": "2026-11-02T00:00:00Z", "until": "2026-11-01T00:00:00Z"}"#)
                #expect(bad.status == 400 && bad.message == "field \"until\": must be after since", "\(bad.body)")
                let done = try await stack.relay.post("/v1/deliveries/retry", token: support, json: filter + "}")
                #expect(done.status == 202 && done.json?["matched"] as? Int == 4 && done.json?["queued"] as? Int == 4, "\(done.body)")
                #expect(try await eventually {
                    let all = try await NotifyEnvironment.deliveries(stack.database, item: id)
                    return all.filter { $0.actionIndex == 0 }.map(\.attempts).sorted() == [6, 9] && all.allSatisfy { $0.state == .dead }
                }, "each failing delivery got a fresh set of attempts and went dead again")
                #expect(try await TestDatabase.scalar(stack.database, """
                    SELECT count(*) FROM bulk_actions WHERE action = 'retry_deliveries' AND matched = 4 AND queued = 4
                      AND requested_by LIKE 'token support-%' AND filters->>'rule' = 'always-failing' AND filters->>'state' = 'dead'
                    """) == 1)
                let cliDry = try await CommandLineTests.run(["deliveries", "retry", "--rule", "always-failing", "--item", id, "--dry-run"],
                                                            env: CommandLineTests.environment(stack.database))
                #expect(cliDry.status == 0 && cliDry.stdout.hasPrefix("4 deliveries match; none retried"), "\(cliDry.stdout) \(cliDry.stderr)")
                let both = try await CommandLineTests.run(["deliveries", "retry", "1", "--rule", "x"], env: CommandLineTests.environment(stack.database))
                #expect(both.status != 0 && both.stderr.contains("not both"))
                let neither = try await CommandLineTests.run(["deliveries", "retry"], env: CommandLineTests.environment(stack.database))
                #expect(neither.status != 0 && neither.stderr.contains("give a delivery ID, or filters"), "a forgotten ID redrives nothing")
            }
        }
    }

    @Test func smtpDownThenBackDelivers() async throws {
        let port = try await freePort()
        let rules = """
            rules:
              - name: every-final
                when: {transition: [result.final]}
                notify:
                  - email: {to: [ops@example.com], subject: "{{customer_item_id}}", text: "{{result}}"}
            """
        let env = try NotifyEnvironment.make(rules: rules, smtpPort: port, schedule: Array(repeating: "300ms", count: 30).joined(separator: ","))
        try await ReconcileStack.with(env: env) { stack async throws in
            let id = try await stack.simulator.createItem("sku-smtp", result: "authentic", final: true)
            #expect(try await eventually {
                try await NotifyEnvironment.deliveries(stack.database, item: id).first.map { $0.state == .failed && $0.attempts >= 1 } ?? false
            })
            let failed = try #require(try await NotifyEnvironment.deliveries(stack.database, item: id).first)
            #expect(failed.lastError?.contains("connection") == true)
            try await TestSMTPServer.with(port: port) { smtp async throws in
                let mails = try await smtp.waitForMessages(1)
                #expect(mails.count == 1)
                let delivered = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .delivered)
                #expect(delivered.first?.attempts ?? 0 >= 2)
                #expect(mails.first?.header("Message-ID") == "<\(failed.idempotencyKey)@example.com>")
            }
        }
    }

    @Test func repeatedWebhooksSendOnce() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            try await TestSMTPServer.with { smtp async throws in
                let env = try NotifyEnvironment.make(rules: Self.rules(callback: callbacks.url("/ok")), smtpPort: smtp.port)
                try await ReconcileStack.with(env: env) { stack async throws in
                    try await stack.simulator.configure(["duplicate_webhooks": .number(2)])
                    let id = try await stack.simulator.createItem("sku-once", result: "authentic", final: true)
                    _ = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 2, state: .delivered)
                    // More hints about the same state, each with its own event ID, posted at once.
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for n in 0..<8 {
                            group.addTask {
                                let fixture = WebhookFixture.entrupy(#"{"event":"session.completed","id":"again-\#(n)","entrupy_id":"\#(id)"}"#)
                                let status = try await stack.relay.post(fixture).status
                                #expect(status == 200)
                            }
                        }
                        try await group.waitForAll()
                    }
                    #expect(try await stack.waitForIdleQueue())
                    #expect(try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") >= 9)
                    #expect(try smtp.messages().count == 1)
                    #expect(try callbacks.requests().count == 1)
                    #expect(try await NotifyEnvironment.deliveries(stack.database, item: id).count == 2)
                }
            }
        }
    }

    @Test func itemDataCannotInjectHeaders() async throws {
        let rules = """
            rules:
              - name: subject-from-item
                when: {transition: [result.final]}
                notify:
                  - email:
                      to: [ops@example.com]
                      subject: "{{brand}} is {{result}}"
                      text: "{{brand}}"
                      html: "<p>{{brand}}</p>"
            """
        try await TestSMTPServer.with { smtp async throws in
            let env = try NotifyEnvironment.make(rules: rules, smtpPort: smtp.port)
            try await ReconcileStack.with(env: env) { stack async throws in
                // Item data is the attacker's: a brand (echoed metadata) that tries to end the Subject line.
                let hostile = "nike\r\nBcc: victim@example.com\r\n\r\n<script>x</script>"
                _ = try await stack.simulator.createItem("sku-inject", brand: hostile, result: "authentic", final: true)
                let mail = try #require(try await smtp.waitForMessages(1).first)
                #expect(mail.recipients == ["ops@example.com"])
                #expect(mail.header("Bcc") == nil)
                #expect(mail.headers.filter { $0.name.lowercased() == "subject" }.count == 1)
                #expect(mail.header("Subject") == "nike Bcc: victim@example.com <script>x</script> is authentic")
                #expect(mail.data.contains("&lt;script&gt;x&lt;/script&gt;"), "the HTML part escapes item data")
            }
        }
    }

    @Test func retryAfterIsHonoured() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            // The schedule alone would retry after ~10 ms; the target asks for 1 s.
            let env = try NotifyEnvironment.make(rules: Self.rules(callback: callbacks.url("/limited/1")), schedule: "10ms")
            try await ReconcileStack.with(env: env) { stack async throws in
                _ = try await stack.simulator.createItem("sku-429", result: "authentic", final: true)
                let requests = try await callbacks.waitForRequests(2)
                #expect(requests.map(\.status) == [429, 200])
                if requests.count == 2 { #expect(requests[1].receivedAt - requests[0].receivedAt >= 0.9) }
            }
        }
    }

    @Test func redirectsAreNotFollowed() async throws {
        let rules = """
            rules:
              - name: moved
                when: {transition: [result.final]}
                notify: [{webhook: {url: "TARGET/redirect", secret: "${CALLBACK_SECRET}"}}]
            """
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: rules.replacingOccurrences(of: "TARGET", with: callbacks.url("")), schedule: "50ms")
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-moved", result: "authentic", final: true)
                let dead = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 1, state: .dead)
                #expect(dead.first?.attempts == 2)
                #expect(dead.first?.lastError?.contains("redirect not followed") == true)
                #expect(try callbacks.requests().map(\.path) == ["/redirect", "/redirect"])
            }
        }
    }

    @Test func privateTargetsAreRefusedUnlessAllowed() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let env = try NotifyEnvironment.make(rules: Self.rules(callback: callbacks.url("/ok")), extra: ["ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS": "false"])
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-private", result: "authentic", final: true)
                let dead = try await NotifyEnvironment.waitForDeliveries(stack.database, item: id, count: 2, state: .dead)
                    .filter { $0.channel == .webhook }
                #expect(dead.count == 1)
                #expect(dead.first?.attempts == 1, "a refused address is not retried")
                #expect(dead.first?.lastError?.contains("loopback") == true)
                #expect(try callbacks.requests().isEmpty)
            }
        }
    }
}
