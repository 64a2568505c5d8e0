import Foundation
import RelayModel
import Testing

/// Operational transitions through the rules: a partner's target opens, recovers, opens again
/// and is disabled, a delivery dies, and each reaches an on-call rule by email and by a
/// callback to the failing partner's own origin, which its open breaker does not hold.
@Suite("Operational alerts", .timeLimit(.minutes(4)))
struct OperationalAlertTests {
    static func rules(_ callbacks: TestCallbackServer) -> String {
        """
        rules:
          - name: partner
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "\(callbacks.url("/switch/partner"))", secret: "${CALLBACK_SECRET}"}
              - webhook: {url: "\(callbacks.url("/gone/archive"))", secret: "${CALLBACK_SECRET}"}
          - name: on-call
            when: {transition: [delivery.dead, target.opened, target.disabled, target.recovered]}
            notify:
              - email: {to: [oncall@example.com], subject: "{{transition}}: {{target}}", text: "{{#error}}Last error: {{error}}{{/error}} {{#delivery_id}}delivery {{delivery_id}} of rule {{rule}}{{/delivery_id}}"}
              - webhook: {url: "\(callbacks.url("/ok/alerts"))", secret: "${CALLBACK_SECRET}"}
        """
    }

    static func operationalKinds(_ stack: ReconcileStack) async throws -> [String] {
        try await TestDatabase.withClient(stack.database) { client in
            let rows = try await client.query("SELECT kind FROM operational_events ORDER BY id", logger: TestDatabase.logger)
            var kinds: [String] = []
            for try await kind in rows.decode(String.self) { kinds.append(kind) }
            return kinds
        }
    }

    @Test func everyOperationalTransitionReachesTheOnCallRule() async throws {
        try await TestCallbackServer.with { callbacks in
            try await TestSMTPServer.with { smtp in
                let env = try NotifyEnvironment.make(
                    rules: Self.rules(callbacks), smtpPort: smtp.port, schedule: Array(repeating: "300ms", count: 40).joined(separator: ","),
                    extra: ["ENTRUPY_RELAY_TARGET_FAILURE_THRESHOLD": "2", "ENTRUPY_RELAY_TARGET_PROBE_SECONDS": "1",
                            "ENTRUPY_RELAY_TARGET_PROBE_MAX_SECONDS": "1"])
                try await ReconcileStack.with(env: env) { stack async throws in
                    let key = TargetKey.endpoint(of: callbacks.url("/switch/partner"))
                    try callbacks.setDown(true)
                    for n in 0..<2 { _ = try await stack.simulator.createItem("sku-ops-\(n)", result: "authentic", final: true) }

                    // Opened: the alert goes out by callback to the open target's own origin, not held.
                    #expect(try await eventually(timeout: .seconds(30)) { try await Self.operationalKinds(stack).contains("target.opened") })
                    #expect(try await eventually { try callbacks.requests().contains { $0.body["type"]?.stringValue == "target.opened" } })
                    let opened = try callbacks.requests().first { $0.body["type"]?.stringValue == "target.opened" }
                    #expect(opened?.path == "/ok/alerts")
                    #expect(opened?.body["data"]?["target"]?.stringValue == key)
                    #expect(opened?.body["data"]?["target_state"]?.stringValue == "open")
                    #expect(try await stack.count("SELECT count(*) FROM delivery_targets WHERE state = 'open'") == 1)
                    // Each /gone delivery died at once (410): two delivery.dead, whatever the breaker.
                    #expect(try await eventually { try await Self.operationalKinds(stack).filter { $0 == "delivery.dead" }.count == 2 })

                    // Recovered.
                    try callbacks.setDown(false)
                    #expect(try await eventually(timeout: .seconds(30)) { try await Self.operationalKinds(stack).contains("target.recovered") })
                    #expect(try await eventually(timeout: .seconds(20)) {
                        try await stack.count("SELECT count(*) FROM deliveries WHERE rule = 'partner' AND state = 'delivered'") == 2
                    })

                    // Down again, and failing for longer than target_disable_after_hours (72): disabled.
                    try callbacks.setDown(true)
                    _ = try await stack.simulator.createItem("sku-ops-late", result: "authentic", final: true)
                    #expect(try await eventually(timeout: .seconds(30)) {
                        try await Self.operationalKinds(stack).filter { $0 == "target.opened" }.count == 2
                    })
                    try await TestDatabase.withClient(stack.database) { client in
                        try await client.query("UPDATE delivery_targets SET failing_since = now() - interval '73 hours'", logger: TestDatabase.logger)
                    }
                    _ = try await stack.simulator.createItem("sku-ops-later", result: "authentic", final: true)
                    #expect(try await eventually(timeout: .seconds(30)) { try await Self.operationalKinds(stack).contains("target.disabled") })
                    #expect(try await stack.count("SELECT count(*) FROM delivery_targets WHERE state = 'disabled' AND disabled_by = 'breaker'") == 1)

                    // Every alert was sent once by each action: never held, never dead, never alerting about itself.
                    let kinds = try await Self.operationalKinds(stack)
                    let alerts = try await callbacks.waitForRequests(kinds.count, path: "/ok/alerts")
                    #expect(Set(alerts.compactMap { $0.body["type"]?.stringValue }) == ["target.opened", "target.recovered", "target.disabled", "delivery.dead"])
                    #expect(alerts.allSatisfy { $0.verified })
                    let mails = try await smtp.waitForMessages(kinds.count)
                    let subjects = Set(mails.compactMap { $0.header("Subject") })
                    #expect(subjects.contains("target.opened: \(key)"))
                    #expect(subjects.contains("target.disabled: \(key)"))
                    #expect(mails.allSatisfy { $0.recipients == ["oncall@example.com"] })
                    #expect(try await stack.count("""
                        SELECT count(*) FROM deliveries WHERE operational_event_id IS NOT NULL
                          AND (state <> 'delivered' OR attempts <> 1 OR held_target IS NOT NULL OR entrupy_id IS NOT NULL)
                        """) == 0)
                    #expect(try await stack.count("SELECT count(*) FROM deliveries WHERE operational_event_id IS NOT NULL") == kinds.count * 2)
                    let dead = try #require(alerts.first { $0.body["type"]?.stringValue == "delivery.dead" })
                    #expect(dead.body["data"]?["delivery"]?["rule"]?.stringValue == "partner")
                    #expect(dead.body["data"]?["delivery"]?["attempts"]?.doubleValue == 1)

                    // The alerts' bodies are valid against the OpenAPI document's callback schemas.
                    let document = try await stack.relay.request("/openapi.json").body
                    let checked = try CallbackSchemaTests.check(document: document, bodies: alerts.map(\.body.jsonText))
                    #expect(checked.failures.isEmpty, "\(checked.failures)")
                    #expect(Set(checked.types) == ["target.opened", "target.recovered", "target.disabled", "delivery.dead"])
                }
            }
        }
    }
}
