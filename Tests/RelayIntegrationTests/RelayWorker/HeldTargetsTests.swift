import Foundation
import PostgresNIO
import RelayModel
import Testing

/// Targets' circuit breakers, end to end: two worker processes sharing one target's state
/// through PostgreSQL, a real callback endpoint that goes down and comes back.
@Suite("Held targets across workers", .timeLimit(.minutes(4)))
struct HeldTargetsTests {
    static let breakerEnv = [
        "ENTRUPY_RELAY_TARGET_FAILURE_THRESHOLD": "3", "ENTRUPY_RELAY_TARGET_PROBE_SECONDS": "1",
        "ENTRUPY_RELAY_TARGET_PROBE_MAX_SECONDS": "1", "ENTRUPY_RELAY_TARGET_DRAIN_PER_SECOND": "4",
    ]

    static func rules(_ callbacks: TestCallbackServer) -> String {
        """
        rules:
          - name: partner
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "\(callbacks.url("/switch/partner"))", secret: "${CALLBACK_SECRET}"}
        """
    }

    /// (delivery ID, attempts, held) for every delivery.
    static func deliveries(_ stack: ReconcileStack) async throws -> [(Int64, Int, Bool)] {
        try await TestDatabase.withClient(stack.database) { client in
            let rows = try await client.query("SELECT id, attempts, held_since IS NOT NULL FROM deliveries ORDER BY id", logger: TestDatabase.logger)
            var found: [(Int64, Int, Bool)] = []
            for try await row in rows.decode((Int64, Int, Bool).self) { found.append(row) }
            return found
        }
    }

    static func targetState(_ stack: ReconcileStack) async throws -> String? {
        try await TestDatabase.withClient(stack.database) { client in
            let rows = try await client.query("SELECT state FROM delivery_targets", logger: TestDatabase.logger)
            var states: [String] = []
            for try await state in rows.decode(String.self) { states.append(state) }
            return states.count == 1 ? states[0] : nil
        }
    }

    static func changes(_ metrics: [String], _ change: String) -> Int {
        metrics.reduce(0) { total, text in
            let line = text.split(separator: "\n").first { $0.hasPrefix("relay_target_changes_total{change=\"\(change)\"}") }
            return total + (line.flatMap { Int(Double($0.split(separator: " ").last ?? "") ?? 0) } ?? 0)
        }
    }

    @Test func aFailingTargetOpensHoldsProbesRecoversAndDrainsAcrossTwoWorkers() async throws {
        try await TestCallbackServer.with { callbacks in
            try await ReconcileStack.with(worker: false) { stack async throws in
                try callbacks.setDown(true)
                let env = try NotifyEnvironment.make(rules: Self.rules(callbacks), schedule: Array(repeating: "300ms", count: 40).joined(separator: ","),
                                                     extra: WorkerProcessTests.workerEnv(stack.simulator, Self.breakerEnv))
                let ports = [try await freePort(), try await freePort()]
                let workers = try ports.map { try RelayProcess(["worker", "--port", String($0)], database: stack.database, env: env) }
                var ids: [String] = []
                for n in 0..<10 { ids.append(try await stack.simulator.createItem("sku-breaker-\(n)", result: "authentic", final: true)) }

                // The breaker opens, and every delivery ends up held but the one probing.
                #expect(try await eventually(timeout: .seconds(30)) { try await Self.targetState(stack) == "open" })
                #expect(try await eventually(timeout: .seconds(30)) {
                    let found = try await Self.deliveries(stack)
                    return found.count == 10 && found.filter(\.2).count >= 9
                })
                let before = try await Self.deliveries(stack)
                let failedBeforeOpening = try await stack.count("SELECT count(*) FROM delivery_attempts")
                try await Task.sleep(for: .seconds(3))
                let after = try await Self.deliveries(stack)
                // Held: attempt counts unchanged, but for the probe (one held delivery a second).
                let moved = zip(before, after).filter { $0.0.1 != $0.1.1 }
                #expect(moved.count <= 2, "attempts moved for \(moved.map(\.0.0))")
                let probes = try await stack.count("SELECT count(*) FROM delivery_attempts") - failedBeforeOpening
                #expect((1...6).contains(probes), "probe attempts in 3 s: \(probes)")
                #expect(try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'dead'") == 0)

                // The target comes back: a probe succeeds, the breaker closes, the backlog drains at 4 a second.
                try callbacks.setDown(false)
                #expect(try await eventually(timeout: .seconds(30)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'delivered' AND held_since IS NULL") == 10
                })
                #expect(try await Self.targetState(stack) == "healthy")
                let delivered = try callbacks.requests().filter { $0.status == 200 }.map(\.receivedAt).sorted()
                #expect(delivered.count == 10)
                // Nine held deliveries at four a second take two seconds or more to drain (the probe went first).
                #expect((delivered.last ?? 0) - (delivered.dropFirst().first ?? 0) >= 1.5, "drained in \((delivered.last ?? 0) - (delivered.first ?? 0)) s")
                // Each held delivery was attempted once more, by whichever worker: their counts moved by one.
                let final = try await Self.deliveries(stack)
                #expect(zip(after, final).filter { $0.1.1 - $0.0.1 != 1 }.count <= 1)

                // Both replicas sent, and between them opened and closed the one breaker once each.
                #expect(try await stack.count("SELECT count(DISTINCT worker) FROM delivery_attempts") == 2)
                var metrics: [String] = []
                for port in ports { metrics.append(try await HTTPProbe(port: port).body("/metrics")) }
                #expect(Self.changes(metrics, "target.opened") == 1)
                #expect(Self.changes(metrics, "target.recovered") == 1)
                // The gauges follow within their refresh (5 s).
                let gauge = "relay_target_state{target=\"\(TargetKey.endpoint(of: callbacks.url("/switch/partner")))\"} 0"
                #expect(try await eventually(timeout: .seconds(10)) { try await HTTPProbe(port: ports[0]).body("/metrics").contains(gauge) })
                for worker in workers { #expect(await worker.stop() == 0) }
            }
        }
    }

    @Test func aDisabledTargetHoldsEverythingUntilEnabled() async throws {
        try await TestCallbackServer.with { callbacks in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let env = try NotifyEnvironment.make(rules: Self.rules(callbacks), extra: WorkerProcessTests.workerEnv(stack.simulator, Self.breakerEnv))
                let cli = CommandLineTests.environment(stack.database, env)
                // Disabled by its URL before it ever failed: the key is the URL's endpoint, its path shown only as a fingerprint.
                let key = TargetKey.endpoint(of: callbacks.url("/switch/partner"))
                #expect(key.hasPrefix("http://127.0.0.1:\(callbacks.port)/***#"))
                let disabled = try await CommandLineTests.run(["targets", "disable", callbacks.url("/switch/partner")], env: cli)
                #expect(disabled.status == 0, "\(disabled.stderr)")
                #expect(disabled.stdout.contains("\(key) is disabled"))
                let worker = try RelayProcess(["worker"], database: stack.database, env: env)
                for n in 0..<3 { _ = try await stack.simulator.createItem("sku-disabled-\(n)", result: "authentic", final: true) }
                #expect(try await eventually(timeout: .seconds(30)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE held_since IS NOT NULL AND attempts = 0") == 3
                })
                // Disabled: no probe, no attempt, however long it waits.
                try await Task.sleep(for: .seconds(2))
                #expect(try await stack.count("SELECT count(*) FROM delivery_attempts") == 0)
                #expect(try callbacks.requests().isEmpty)

                let listed = try await CommandLineTests.run(["targets", "list", "--json"], env: cli)
                let targets = try #require(JSONValue(jsonText: listed.stdout)?.arrayValue)
                #expect(targets.count == 1)
                #expect(targets.first?["state"]?.stringValue == "disabled")
                #expect(targets.first?["held"]?.doubleValue == 3)
                // The command line names itself and the login it runs as (CommandOperator), whatever USER is here.
                #expect(targets.first?["disabled_by"]?.stringValue?.hasPrefix("cli (") == true)
                let id = try #require(targets.first?["id"]?.doubleValue)

                let enabled = try await CommandLineTests.run(["targets", "enable", String(Int(id))], env: cli)
                #expect(enabled.status == 0, "\(enabled.stderr)")
                #expect(enabled.stdout.contains("\(key) is healthy"))
                #expect(try await eventually(timeout: .seconds(20)) {
                    try await stack.count("SELECT count(*) FROM deliveries WHERE state = 'delivered' AND attempts = 1") == 3
                })
                let vague = try await CommandLineTests.run(["targets", "disable", "partner.example.com"], env: cli)
                #expect(vague.status != 0 && vague.stderr.contains("a callback URL such as"), "\(vague.stderr)")
                let unknown = try await CommandLineTests.run(["targets", "enable", "999"], env: cli)
                #expect(unknown.status != 0)
                #expect(unknown.stderr.contains("no target 999"))
                #expect(await worker.stop() == 0)
            }
        }
    }
}
