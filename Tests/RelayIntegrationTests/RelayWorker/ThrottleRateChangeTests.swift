import Foundation
import PostgresNIO
import RelayModel
import Testing

/// Issue 46, review: a limit written too slow (`1/m` meaning `1/s`) and fixed by a reload. The
/// backlog booked at the slow rate must not sleep out its appointments: each job wakes within
/// the throttle's longest wait (3 s here) and the changed rate resets the target's row.
@Suite("A throttled target's rate changed by a reload", .timeLimit(.minutes(2)))
struct ThrottleRateChangeTests {
    static let backlog = 6

    static func rules(_ callbacks: TestCallbackServer, rate: String) -> String {
        """
        rules:
          - name: partner
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "\(callbacks.url("/ok"))", secret: "${CALLBACK_SECRET}"}
        targets:
          - url: http://127.0.0.1:\(callbacks.port)
            rate_limit: \(rate)
        """
    }

    @Test func aBacklogBookedAtASlowRateGoesWithinTheLongestWaitOnceTheRateIsRaised() async throws {
        try await TestCallbackServer.with { callbacks in
            try await ReconcileStack.with(worker: false) { stack async throws in
                let slow = Self.rules(callbacks, rate: "1/m")
                try await ThrottledTargetTests.seedHeldBacklog(stack.database, url: callbacks.url("/ok"),
                                                               keyID: try ThrottledTargetTests.signingKeyID(slow), count: Self.backlog)
                let env = try NotifyEnvironment.make(rules: slow, extra: WorkerProcessTests.workerEnv(stack.simulator, [
                    "ENTRUPY_RELAY_TARGET_DRAIN_PER_SECOND": "50", "ENTRUPY_RELAY_TARGET_THROTTLE_MAX_WAIT_SECONDS": "3",
                    "ENTRUPY_RELAY_LOG_LEVEL": "info",
                ]))
                let worker = try RelayProcess(["worker", "--port", String(try await freePort())], database: stack.database, env: env)
                try await Task.sleep(for: .seconds(2))
                try await TestDatabase.execute(stack.database, "UPDATE delivery_targets SET state = 'healthy', disabled_by = NULL")
                let delivered = "SELECT count(*) FROM deliveries WHERE state = 'delivered'"
                let first = try await eventually(timeout: .seconds(30)) { try await stack.count(delivered) == 1 }
                let count = try await stack.count(delivered)
                #expect(first, "\(count) delivered; \(worker.output.suffix(1_500))")
                // The others are booked a minute apart, out to five minutes; each shows when its job wakes,
                // within the longest wait (3 s), not at its appointment.
                #expect(try await eventually(timeout: .seconds(10)) {
                    try await stack.count("""
                        SELECT count(*) FROM deliveries WHERE state = 'pending'
                          AND next_attempt_at BETWEEN now() AND now() + interval '3.1 seconds'
                        """) == Self.backlog - 1
                })
                try await Task.sleep(for: .seconds(4))
                #expect(try await stack.count(delivered) == 1, "the slow rate held the rest")

                let rulesFile = try #require(env["ENTRUPY_RELAY_RULES_FILE"])
                try Self.rules(callbacks, rate: "30/s").write(toFile: rulesFile, atomically: true, encoding: .utf8)
                worker.kill(SIGHUP)
                #expect(try await eventually(timeout: .seconds(10)) { worker.output.contains("rules reloaded") })
                let reloaded = ContinuousClock.now
                // Within the longest wait plus a little: each job wakes, finds the rate changed, and goes.
                #expect(try await eventually(timeout: .seconds(8)) { try await stack.count(delivered) == Self.backlog })
                let elapsed = ContinuousClock.now - reloaded
                print("throttle: after the reload to 30/s the \(Self.backlog - 1) held back went in \(elapsed)")
                #expect(try await stack.count("SELECT count(*) FROM delivery_attempts") == Self.backlog)
                #expect(await worker.stop() == 0)
            }
        }
    }
}
