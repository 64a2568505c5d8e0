import Foundation
import RelayModel
import RelayStore
import Testing

/// `rules check`, `rules test`, `deliveries list/retry` and the SIGHUP reload, through the binary.
@Suite("Notify commands", .timeLimit(.minutes(3)))
struct NotifyCommandLineTests {
    static let goodRules = """
        rules:
          - name: final-mail
            when: {transition: [result.final], result: [authentic]}
            notify:
              - email: {to: [ops@example.com], subject: "{{customer_item_id}} is {{result}}", text: "."}
            continue: true
          - name: failing-callback
            notify:
              - webhook: {url: "TARGET/fail", secret: "${CALLBACK_SECRET}"}
        """

    static func write(_ text: String) throws -> String {
        let path = try TestServerProcess.temporaryDirectory("rules").appendingPathComponent("rules.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func rulesCheckNamesRuleAndField() async throws {
        let env = CommandLineTests.environment(nil, ["CALLBACK_SECRET": TestCallbackServer.secret])
        let good = try await CommandLineTests.run(["rules", "check", try Self.write(Self.goodRules.replacingOccurrences(of: "TARGET", with: "https://x.example"))], env: env)
        #expect(good.status == 0)
        #expect(good.stdout.contains("ok, 2 rules"))
        #expect(good.stdout.contains("final-mail: email (continue)"))

        let bad = try await CommandLineTests.run(["rules", "check", try Self.write("""
            rules:
              - name: typo
                when: {transition: [result.finale]}
                notify: [{email: {to: [ops@example.com], subject: s, text: t}}]
              - name: no-secret
                notify: [{webhook: {url: "https://x.example", secret: "${NOT_SET_ANYWHERE}"}}]
            """)], env: env)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("line 3: rule \"typo\": when.transition: unknown transition kind \"result.finale\""))
        #expect(bad.stderr.contains("rule \"no-secret\": notify[0].webhook.secret: environment variable NOT_SET_ANYWHERE is not set"))
        let missing = try await CommandLineTests.run(["rules", "check", "/nonexistent/rules.yaml"], env: env)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read /nonexistent/rules.yaml"))
    }

    /// Issue 28: `serve --no-worker` built the SDK import's pipeline with `rules: try? …`, so a
    /// broken rules file meant "send nothing" in silence. Now it stops, as the worker does.
    @Test func serveWithoutWorkerStopsOnABrokenRulesFile() async throws {
        try await TestDatabase.with { db async throws in
            let rules = try Self.write("rules:\n  - name: typo\n    when: {transition: [result.finale]}\n    notify: []\n")
            let env = CommandLineTests.environment(db, [
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "t", "ENTRUPY_RELAY_RULES_FILE": rules,
            ])
            let serve = try await CommandLineTests.run(["serve", "--no-worker", "--port", String(try await freePort())], env: env)
            #expect(serve.status != 0)
            #expect(serve.stderr.contains("unknown transition kind \"result.finale\""), "\(serve.stderr)")
        }
    }

    @Test func deliveriesListRetryAndRulesTest() async throws {
        try await TestCallbackServer.with { callbacks async throws in
            let rulesText = Self.goodRules.replacingOccurrences(of: "TARGET", with: callbacks.url(""))
            let env = try NotifyEnvironment.make(rules: rulesText, schedule: "50ms")
            try await ReconcileStack.with(env: env) { stack async throws in
                let id = try await stack.simulator.createItem("sku-cli", result: "authentic", final: true)
                // Two transitions (item.created, result.final): the callback rule fires for both,
                // and the email rule once. Wait for all three to be dead, not only the callbacks.
                _ = try await eventually {
                    let dead = try await NotifyEnvironment.deliveries(stack.database, item: id).filter { $0.state == .dead }
                    return dead.filter { $0.channel == .webhook }.count == 2 && dead.contains { $0.channel == .email }
                }
                let cli = CommandLineTests.environment(stack.database, ["CALLBACK_SECRET": TestCallbackServer.secret,
                                                                        "ENTRUPY_RELAY_DELIVERY_RETRY_SCHEDULE": "50ms"])
                let list = try await CommandLineTests.run(["deliveries", "list", "--json", "--state", "dead", "--item", id], env: cli)
                #expect(list.status == 0)
                let all = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
                // The email is dead too: no SMTP server is configured here.
                #expect(all.count == 3)
                #expect(all.contains { $0["channel"] as? String == "email" && ($0["last_error"] as? String)?.contains("ENTRUPY_RELAY_SMTP_URL") == true })
                let array = all.filter { $0["channel"] as? String == "webhook" }
                #expect(array.count == 2)
                let keys: Set<String> = ["id", "state", "rule", "channel", "target", "attempts", "last_error"]
                #expect(array.allSatisfy { keys.isSubset(of: Set($0.keys)) })
                #expect(array.allSatisfy { $0["state"] as? String == "dead" && $0["attempts"] as? Int == 2 && $0["rule"] as? String == "failing-callback" })
                #expect((array.first?["last_error"] as? String)?.contains("500") == true)

                let table = try await CommandLineTests.run(["deliveries", "list", "--item", id], env: cli)
                #expect(table.stdout.hasPrefix("ID  ENTRUPY ID"))
                #expect(table.stdout.contains("final-mail"))

                let deliveryID = try #require(array.first?["id"] as? Int)
                let retry = try await CommandLineTests.run(["deliveries", "retry", String(deliveryID)], env: cli)
                #expect(retry.status == 0)
                #expect(retry.stdout == "delivery \(deliveryID) will be attempted again now\n")
                #expect(try await eventually {
                    try await NotifyEnvironment.deliveries(stack.database, item: id).first { $0.id == deliveryID }.map { $0.attempts == 4 && $0.state == .dead } ?? false
                })
                let unknown = try await CommandLineTests.run(["deliveries", "retry", "987654"], env: cli)
                #expect(unknown.status == 1)
                #expect(unknown.stderr == "entrupy-relay: delivery 987654 does not exist\n")
                let badState = try await CommandLineTests.run(["deliveries", "list", "--state", "lost"], env: cli)
                #expect(badState.status != 0)
                #expect(badState.stderr.contains("--state: must be one of pending, failed, delivered, dead"), "\(badState.stderr)")

                let rulesFile = try Self.write(rulesText)
                let test = try await CommandLineTests.run(["rules", "test", rulesFile, "--item", "sku-cli"], env: cli)
                #expect(test.status == 0)
                #expect(test.stdout.contains("latest transition result.final"))
                #expect(test.stdout.contains("final-mail: email to ops@example.com: \"sku-cli is authentic\""))
                #expect(test.stdout.contains("failing-callback: webhook POST \(callbacks.url(""))/***"))
                #expect(test.stdout.contains("(nothing was sent)"))
                let before = try callbacks.requests().count
                let json = try await CommandLineTests.run(["rules", "test", rulesFile, "--item", id, "--json"], env: cli)
                let output = try #require(JSONValue(jsonText: json.stdout))
                #expect(output["deliveries"]?.arrayValue?.count == 2)
                #expect(try callbacks.requests().count == before, "rules test sends nothing")
                let none = try await CommandLineTests.run(["rules", "test", rulesFile, "--item", "nope"], env: cli)
                #expect(none.status == 1)
            }
        }
    }

    @Test func sighupReloadsRulesAndKeepsThemOnAMistake() async throws {
        try await TestDatabase.with { db async throws in
            let path = try Self.write("""
                rules:
                  - name: first
                    notify: [{email: {to: [a@example.com], subject: s, text: t}}]
                """)
            let port = try await freePort()
            let process = try RelayProcess(["serve", "--port", String(port)], database: db, env: [
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": "unused", "ENTRUPY_RELAY_ENTRUPY_API_URL": "http://127.0.0.1:9",
                "ENTRUPY_RELAY_RULES_FILE": path, "ENTRUPY_RELAY_LOG_LEVEL": "info",
            ])
            #expect(try await eventually(timeout: .seconds(20)) { (try? await HTTPProbe(port: port).status("/readyz")) == 200 })
            #expect(process.output.contains("\"rules\":\"1\""))

            try "rules:\n  - name: broken\n    when: {transition: [nope]}\n".write(toFile: path, atomically: true, encoding: .utf8)
            process.kill(SIGHUP)
            #expect(try await eventually { process.output.contains("rules file rejected") })
            #expect(process.output.contains("unknown transition kind \\\"nope\\\""))
            #expect(process.isRunning)

            try """
                rules:
                  - name: first
                    notify: [{email: {to: [a@example.com], subject: s, text: t}}]
                  - name: second
                    notify: [{email: {to: [b@example.com], subject: s, text: t}}]
                """.write(toFile: path, atomically: true, encoding: .utf8)
            process.kill(SIGHUP)
            #expect(try await eventually { process.output.contains("rules reloaded") && process.output.contains("\"rules\":\"2\"") })
            #expect(await process.stop() == 0)
        }
    }
}
