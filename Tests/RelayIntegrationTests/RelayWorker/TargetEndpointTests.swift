import Foundation
import PostgresNIO
import RelayModel
import RelayStore
import Testing

/// Issue 42, finding 2: one partner's bad messages must not hold everyone's notifications.
/// A breaker guards one endpoint (scheme, host, port and path), and only what says the
/// endpoint is unwell counts against it: against a real callback sink that answers 422 to
/// some bodies, a real SMTP server that refuses one recipient, and worker processes.
@Suite("Target endpoints", .timeLimit(.minutes(4)))
struct TargetEndpointTests {
    static let breakerEnv = HeldTargetsTests.breakerEnv

    static func webhook(_ name: String, _ url: String) -> String {
        """
          - name: \(name)
            when: {transition: [result.final]}
            continue: true
            notify:
              - webhook: {url: "\(url)", secret: "${CALLBACK_SECRET}"}
        """
    }

    static func email(_ name: String, to recipient: String) -> String {
        """
          - name: \(name)
            when: {transition: [result.final]}
            continue: true
            notify:
              - email: {to: [\(recipient)], subject: "{{customer_item_id}}", text: "."}
        """
    }

    /// Deliveries of `rule` for items whose customer ID starts with `prefix`, in `state`,
    /// attempted `attempts` times (any count when nil) and never held.
    static func settled(_ stack: ReconcileStack, rule: String, prefix: String, state: String, attempts: Int? = nil) async throws -> Int {
        try await stack.count("""
            SELECT count(*) FROM deliveries d JOIN items i ON i.entrupy_id = d.entrupy_id
            WHERE d.rule = '\(rule)' AND i.customer_item_id LIKE '\(prefix)%' AND d.state = '\(state)' AND d.held_target IS NULL
              \(attempts.map { "AND d.attempts = \($0)" } ?? "")
            """)
    }

    /// Every delivery's rule, state, attempts, holder and last error: what a failure shows.
    static func summary(_ stack: ReconcileStack) async throws -> [String] {
        try await TestDatabase.withClient(stack.database) { client in
            let rows = try await client.query("""
                SELECT rule || ' ' || state || ' ' || attempts || ' ' || coalesce(held_target, '-') || ' ' || coalesce(last_error, '-')
                FROM deliveries ORDER BY id
                """, logger: TestDatabase.logger)
            var found: [String] = []
            for try await line in rows.decode(String.self) { found.append(line) }
            return found
        }
    }

    static func targets(_ stack: ReconcileStack) async throws -> [(String, String)] {
        try await TestDatabase.withClient(stack.database) { client in
            let rows = try await client.query("SELECT key, state FROM delivery_targets ORDER BY key", logger: TestDatabase.logger)
            var found: [(String, String)] = []
            for try await row in rows.decode((String, String).self) { found.append(row) }
            return found
        }
    }

    /// Twelve-odd 422s from one endpoint: each delivery retries and dies on its own schedule,
    /// and neither that endpoint's breaker nor its neighbour's on the same host and port opens.
    @Test func refusedMessagesOpenNoBreaker() async throws {
        try await TestCallbackServer.with { callbacks in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let rules = "rules:\n" + Self.webhook("picky", callbacks.url("/picky/a")) + "\n" + Self.webhook("steady", callbacks.url("/fine/b"))
                let env = try NotifyEnvironment.make(rules: rules, schedule: "200ms,200ms,200ms",
                                                     extra: WorkerProcessTests.workerEnv(stack.simulator, Self.breakerEnv))
                let worker = try RelayProcess(["worker"], database: stack.database, env: env)
                for n in 0..<5 { _ = try await stack.simulator.createItem("unprocessable-\(n)", result: "authentic", final: true) }
                // Each refused delivery is attempted along its schedule (four attempts) and dies.
                let died = try await eventually(timeout: .seconds(40)) {
                    try await Self.settled(stack, rule: "picky", prefix: "unprocessable-", state: "dead", attempts: 4) == 5
                }
                let diedTargets = try await Self.summary(stack)
                #expect(died, "refused deliveries: \(diedTargets)")
                #expect(try callbacks.requests().filter { $0.status == 422 }.count == 20)

                // Messages the partner takes go through at once, to both endpoints: nothing was held.
                for n in 0..<3 { _ = try await stack.simulator.createItem("fine-\(n)", result: "authentic", final: true) }
                let delivered = try await eventually(timeout: .seconds(20)) {
                    let picky = try await Self.settled(stack, rule: "picky", prefix: "fine-", state: "delivered", attempts: 1)
                    let steady = try await Self.settled(stack, rule: "steady", prefix: "", state: "delivered", attempts: 1)
                    return picky == 3 && steady == 8
                }
                let deliveredTargets = try await Self.summary(stack)
                #expect(delivered, "targets: \(deliveredTargets)")
                #expect(try await stack.count("SELECT count(*) FROM delivery_targets WHERE state <> 'healthy'") == 0)
                #expect(try await stack.count("SELECT count(*) FROM operational_events WHERE kind LIKE 'target.%'") == 0)
                #expect(await worker.stop() == 0)
            }
        }
    }

    /// 5xx and refused connections still open a breaker, that endpoint's only: another path on
    /// the same host and port keeps delivering.
    @Test func serverErrorsAndRefusedConnectionsOpenOnlyTheirEndpoint() async throws {
        try await TestCallbackServer.with { callbacks in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let closed = try await freePort()
                let rules = "rules:\n" + Self.webhook("broken", callbacks.url("/fail/x")) + "\n"
                    + Self.webhook("nowhere", "http://127.0.0.1:\(closed)/hooks/T00/B00/s3cretPathPart") + "\n"
                    + Self.webhook("steady", callbacks.url("/fine/b"))
                let env = try NotifyEnvironment.make(rules: rules, schedule: Array(repeating: "200ms", count: 30).joined(separator: ","),
                                                     extra: WorkerProcessTests.workerEnv(stack.simulator, Self.breakerEnv))
                let worker = try RelayProcess(["worker"], database: stack.database, env: env)
                for n in 0..<3 { _ = try await stack.simulator.createItem("early-\(n)", result: "authentic", final: true) }
                let opened = try await eventually(timeout: .seconds(30)) {
                    try await stack.count("SELECT count(*) FROM delivery_targets WHERE state = 'open'") == 2
                }
                let openedTargets = try await Self.summary(stack)
                #expect(opened, "targets: \(openedTargets)")

                // Opened: the failing endpoints' new deliveries are held; the neighbour's are not.
                for n in 0..<3 { _ = try await stack.simulator.createItem("late-\(n)", result: "authentic", final: true) }
                let delivered = try await eventually(timeout: .seconds(20)) {
                    try await Self.settled(stack, rule: "steady", prefix: "", state: "delivered", attempts: 1) == 6
                }
                let deliveredTargets = try await Self.summary(stack)
                #expect(delivered, "targets: \(deliveredTargets)")
                let held = try await eventually(timeout: .seconds(20)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE held_target IS NOT NULL AND rule IN ('broken', 'nowhere')") >= 4
                }
                #expect(held)
                #expect(try await stack.count("SELECT count(*) FROM deliveries WHERE rule = 'steady' AND held_target IS NOT NULL") == 0)
                let keys = try await Self.targets(stack).map(\.0)
                #expect(keys.sorted() == [TargetKey.endpoint(of: callbacks.url("/fail/x")),
                                          TargetKey.endpoint(of: "http://127.0.0.1:\(closed)/hooks/T00/B00/s3cretPathPart")].sorted())
                // A key never shows the path: it may hold a secret.
                #expect(keys.allSatisfy { !$0.contains("fail") && !$0.contains("s3cret") }, "\(keys)")
                #expect(await worker.stop() == 0)
            }
        }
    }

    /// A recipient refused (451 to its RCPT, as for a full mailbox) fails that email alone: the
    /// mail server's breaker does not count it, and other emails keep going.
    @Test func aRefusedRecipientDoesNotCountAgainstTheMailServer() async throws {
        try await TestSMTPServer.with { smtp in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let rules = "rules:\n" + Self.email("deferred", to: "defer-full@example.com") + "\n" + Self.email("mailed", to: "ops@example.com")
                let env = try NotifyEnvironment.make(rules: rules, smtpPort: smtp.port, schedule: "200ms,200ms,200ms",
                                                     extra: WorkerProcessTests.workerEnv(stack.simulator, Self.breakerEnv))
                let worker = try RelayProcess(["worker"], database: stack.database, env: env)
                for n in 0..<4 { _ = try await stack.simulator.createItem("early-\(n)", result: "authentic", final: true) }
                let died = try await eventually(timeout: .seconds(40)) {
                    try await Self.settled(stack, rule: "deferred", prefix: "", state: "dead", attempts: 4) == 4
                }
                let diedTargets = try await Self.summary(stack)
                #expect(died, "targets: \(diedTargets)")
                for n in 0..<3 { _ = try await stack.simulator.createItem("late-\(n)", result: "authentic", final: true) }
                let delivered = try await eventually(timeout: .seconds(20)) {
                    try await Self.settled(stack, rule: "mailed", prefix: "", state: "delivered", attempts: 1) == 7
                }
                let deliveredTargets = try await Self.summary(stack)
                #expect(delivered, "targets: \(deliveredTargets)")
                #expect(try await stack.count("SELECT count(*) FROM delivery_targets WHERE state <> 'healthy'") == 0)
                #expect(await worker.stop() == 0)
            }
        }
    }
}
