import Foundation
import RelayModel
import Testing

/// `targets test RULE|URL` through the binary, against a real endpoint that verifies the
/// Standard Webhooks signature (401 otherwise) and the suite's real SMTP server.
@Suite("targets test", .timeLimit(.minutes(3)))
struct TargetTestCommandTests {
    static func rules(_ callbacks: TestCallbackServer, smtpRecipient: String = "ops@example.com") -> String {
        """
        rules:
          - name: partner
            when: {transition: [flag.raised, result.final], brand: [gucci]}
            notify:
              - webhook: {url: "\(callbacks.url("/ok"))", secret: "${CALLBACK_SECRET}"}
              - email: {to: [\(smtpRecipient)], subject: "{{brand}} {{transition}} {{customer_item_id}}", text: "{{result_label}}"}
          - name: failing
            notify:
              - webhook: {url: "\(callbacks.url("/fail"))", secret: "${CALLBACK_SECRET}"}
        """
    }

    static func environment(_ db: DatabaseURL, rules: String, _ extra: [String: String] = [:]) throws -> [String: String] {
        CommandLineTests.environment(db, [
            "CALLBACK_SECRET": TestCallbackServer.secret, "ENTRUPY_RELAY_RULES_FILE": try NotifyCommandLineTests.write(rules),
            "ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS": "true",
        ].merging(extra) { _, new in new })
    }

    @Test func aRulesTargetAnswersAndNothingIsRecorded() async throws {
        try await TestDatabase.with { db async throws in
            try await TestCallbackServer.with { callbacks async throws in
                let env = try Self.environment(db, rules: Self.rules(callbacks))
                let run = try await CommandLineTests.run(["targets", "test", "partner"], env: env)
                #expect(run.status == 0, "\(run.stderr)")
                let request = try #require(try callbacks.requests().first)
                #expect(request.verified, "signed with the rule's secret: \(request.error ?? "")")
                #expect(request.path == "/ok" && request.webhookID.hasPrefix("test_"))
                #expect(request.body["type"]?.stringValue == "result.final")
                #expect(request.body["data"]?["brand"]?.stringValue == "gucci")
                #expect(run.stdout.contains("rule partner action 0: webhook POST \(callbacks.url(""))/***"))
                #expect(run.stdout.contains("webhook-id \(request.webhookID)"))
                #expect(run.stdout.contains("HTTP 200 in "))
                #expect(run.stdout.contains("content-type: application/json"), "the headers worth showing")
                #expect(run.stdout.contains(#"{"status": 200}"#), "the endpoint's body: \(run.stdout)")

                let flag = try await CommandLineTests.run(["targets", "test", "partner", "--transition", "flag.raised", "--json"], env: env)
                #expect(flag.status == 0)
                let json = try #require(JSONValue(jsonText: flag.stdout))
                #expect(json["status"]?.doubleValue == 200 && json["succeeded"]?.boolValue == true && json["transition"]?.stringValue == "flag.raised")
                #expect(try callbacks.requests().last?.body["type"]?.stringValue == "flag.raised")

                let failing = try await CommandLineTests.run(["targets", "test", "failing"], env: env)
                #expect(failing.status == 1)
                #expect(failing.stdout.contains("HTTP 500 in "))
                #expect(failing.stdout.contains(#"{"status": 500}"#))
                #expect(try callbacks.requests().count == 3)
                for table in ["deliveries", "jobs", "delivery_attempts", "operational_events"] {
                    #expect(try await TestDatabase.scalar(db, "SELECT count(*)::int FROM \(table)") == 0, "\(table) is untouched")
                }
            }
        }
    }

    @Test func hostileChoicesFailWithOneLine() async throws {
        try await TestDatabase.with { db async throws in
            try await TestCallbackServer.with { callbacks async throws in
                let env = try Self.environment(db, rules: Self.rules(callbacks))
                let cases: [([String], String)] = [
                    (["nope"], "entrupy-relay: no rule named \"nope\" (rules: partner, failing)\n"),
                    (["partner", "--action", "5"], "entrupy-relay: rule \"partner\" has no action 5: its actions are 0 to 1\n"),
                    (["partner", "--transition", "item.created"],
                     "entrupy-relay: rule \"partner\" does not match item.created (it matches result.final, flag.raised)\n"),
                    (["partner", "--transition", "nonsense"], "entrupy-relay: unknown transition kind \"nonsense\"\n"),
                    (["http://", "--secret-env", "CALLBACK_SECRET"], "entrupy-relay: not an http(s) URL with a host: http://\n"),
                    (["ftp://x.example/hook"], "entrupy-relay: not an http(s) URL with a host: ftp://x.example/***\n"),
                    ([callbacks.url("/ok"), "--secret-env", "UNSET_SECRET"], "entrupy-relay: --secret-env: environment variable UNSET_SECRET is not set\n"),
                    ([callbacks.url("/ok"), "--secret-env", "NOT_WHSEC"],
                     "entrupy-relay: --secret-env: NOT_WHSEC is not a Standard Webhooks secret (whsec_ followed by base64)\n"),
                ]
                for (arguments, stderr) in cases {
                    let run = try await CommandLineTests.run(["targets", "test"] + arguments, env: env.merging(["NOT_WHSEC": "plain"]) { _, new in new })
                    #expect(run.status == 1, "\(arguments)")
                    #expect(run.stderr == stderr, "\(arguments)")
                }
                let negative = try await CommandLineTests.run(["targets", "test", "partner", "--action=-1"], env: env)
                #expect(negative.status != 0 && negative.stderr.contains("--action must be 0 or more"))
                #expect(try callbacks.requests().isEmpty, "nothing was sent")
            }
        }
    }

    @Test func aURLIsPostedTheDefaultBodySignedWhenASecretIsGiven() async throws {
        try await TestDatabase.with { db async throws in
            try await TestCallbackServer.with { callbacks async throws in
                let env = try Self.environment(db, rules: Self.rules(callbacks))
                let signed = try await CommandLineTests.run(["targets", "test", callbacks.url("/ok"), "--secret-env", "CALLBACK_SECRET"], env: env)
                #expect(signed.status == 0, "\(signed.stderr)")
                #expect(signed.stdout.contains("HTTP 200"))
                let request = try #require(try callbacks.requests().first)
                #expect(request.verified && request.webhookID.hasPrefix("test_") && request.body["type"]?.stringValue == "result.final")
                // Unsigned, the endpoint refuses it (401): exit 1 and its answer printed.
                let unsigned = try await CommandLineTests.run(["targets", "test", callbacks.url("/ok")], env: env)
                #expect(unsigned.status == 1)
                #expect(unsigned.stdout.contains("HTTP 401"))
                // Refused addresses stay refused, as for deliveries.
                let refused = try await CommandLineTests.run(["targets", "test", callbacks.url("/ok"), "--secret-env", "CALLBACK_SECRET"],
                                                             env: env.merging(["ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS": "false"]) { _, new in new })
                #expect(refused.status == 1)
                #expect(refused.stdout.contains("failed: refused: 127.0.0.1 resolves to 127.0.0.1, a loopback address"), "\(refused.stdout)")
                // An endpoint slower than the callback timeout: one line saying so, exit 1.
                let slow = try await CommandLineTests.run(["targets", "test", callbacks.url("/slow/3000"), "--secret-env", "CALLBACK_SECRET"],
                                                          env: env.merging(["ENTRUPY_RELAY_CALLBACK_TIMEOUT_SECONDS": "1"]) { _, new in new })
                #expect(slow.status == 1)
                #expect(slow.stdout.hasSuffix("failed: no response within 1 s\n"), "\(slow.stdout)")
            }
        }
    }

    @Test func anEmailGoesThroughTheSMTPServerAndItsReplyIsPrinted() async throws {
        try await TestDatabase.with { db async throws in
            try await TestCallbackServer.with { callbacks async throws in
                try await TestSMTPServer.with { smtp async throws in
                    let extra = ["ENTRUPY_RELAY_SMTP_URL": "smtp://127.0.0.1:\(smtp.port)?tls=none", "ENTRUPY_RELAY_SMTP_FROM": "relay@example.com"]
                    let env = try Self.environment(db, rules: Self.rules(callbacks), extra)
                    let run = try await CommandLineTests.run(["targets", "test", "partner", "--action", "1"], env: env)
                    #expect(run.status == 0, "\(run.stderr)")
                    #expect(run.stdout.contains("rule partner action 1: email to ops@example.com"))
                    #expect(run.stdout.contains("SMTP 250"))
                    let mail = try #require(try await smtp.waitForMessages(1).first)
                    #expect(mail.recipients == ["ops@example.com"])
                    #expect(mail.header("Subject") == "gucci result.final sample-0001")
                    #expect(mail.header("Message-ID")?.hasPrefix("<test_") == true)

                    let refusing = try Self.environment(db, rules: Self.rules(callbacks, smtpRecipient: "reject@example.com"), extra)
                    let refused = try await CommandLineTests.run(["targets", "test", "partner", "--action", "1"], env: refusing)
                    #expect(refused.status == 1)
                    #expect(refused.stdout.contains("SMTP 550 5.1.1 no such user here"), "\(refused.stdout)")
                }
            }
        }
    }

    /// A chat preset's target (helper A's presets): the preset's body, unsigned, as a delivery would be.
    @Test func aChatPresetIsRenderedAndSentUnsigned() async throws {
        try await TestDatabase.with { db async throws in
            try await TestChatSink.with("teams") { sink async throws in
                let rules = """
                    rules:
                      - name: teams
                        when: {transition: [flag.raised]}
                        notify:
                          - webhook: {url: "\(sink.url)", preset: teams}
                    """
                let env = CommandLineTests.environment(db, ["ENTRUPY_RELAY_RULES_FILE": try NotifyCommandLineTests.write(rules),
                                                            "ENTRUPY_RELAY_ALLOW_PRIVATE_CALLBACKS": "true"])
                let run = try await CommandLineTests.run(["targets", "test", "teams"], env: env)
                #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
                #expect(run.stdout.contains("HTTP 202"))
                let request = try #require(sink.requests().first)
                #expect(request.accepted, "the shape Teams documents: \(request.problem ?? "")")
                #expect(!request.signed && request.webhookHeaders.isEmpty)
            }
        }
    }
}
