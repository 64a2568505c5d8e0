import Foundation
import Logging
import RelayCore
import RelayQueue
import RelayStore
import RelayWorker
import Testing

/// The deliver handler and its target's breaker, on in-memory ports.
@Suite("The deliver handler's breaker")
struct DeliveryHandlerBreakerTests {
    static let key = "https://partner.example"
    static let breaker = TargetBreaker(policy: BreakerPolicy(consecutiveFailures: 2))

    static func handler(_ deliveries: [DeliveryRecord], callbacks: ScriptedSender, targets: MemoryTargetHealth) -> DeliveryHandler {
        DeliveryHandler(deliveries: MemoryDeliveries(deliveries), email: nil, callbacks: callbacks, schedule: DeliveryHandlerTests.schedule,
                        limiter: TargetLimiter(limit: 4), targets: targets, breaker: breaker, workerID: "worker-1",
                        logger: DeliveryHandlerTests.logger)
    }

    static func open(probe: Int64? = nil, targets: MemoryTargetHealth) -> TargetHealth {
        var health = TargetHealth(id: 1, key: key, state: .open, stateSince: targets.now, failingSince: targets.now, consecutiveFailures: 2,
                                  probeWait: .seconds(30), nextProbeAt: targets.now)
        health.probeDeliveryID = probe
        health.probeUntil = probe.map { _ in targets.now.addingTimeInterval(60) }
        return health
    }

    @Test func anOpenTargetsDeliveryIsHeldWithoutAnAttempt() async throws {
        let seed = MemoryTargetHealth()
        let targets = MemoryTargetHealth([Self.open(targets: seed)])
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let result = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(1, attempts: 3)], callbacks: callbacks,
                                                                     targets: targets), 1)
        #expect(callbacks.sent.isEmpty)
        let hold = try #require(result.record as? DeliveryHoldWrite)
        #expect(hold == DeliveryHoldWrite(deliveryID: 1, target: Self.key))
        guard case .snooze(let wait) = result.outcome else { Issue.record("not snoozed: \(result.outcome)"); return }
        #expect(wait >= DeliveryHandler.holdRecheck * 0.9 && wait <= DeliveryHandler.holdRecheck * 1.1)
        #expect(targets.records == 0)
    }

    @Test func aHeldDeliveryWaitsForTheDrainEvenOnceItsTargetIsHealthy() async throws {
        var held = DeliveryHandlerTests.delivery(1)
        held.heldBy = Self.key
        held.heldSince = Date(timeIntervalSince1970: 1_800_000_000)
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let result = try await DeliveryHandlerTests.run(Self.handler([held], callbacks: callbacks, targets: MemoryTargetHealth()), 1)
        // Woken on its own (its hour is up): the drain, not the wake-up, sets the pace.
        #expect(callbacks.sent.isEmpty)
        #expect(result.record is DeliveryHoldWrite)
    }

    @Test func theClaimedProbeIsAttemptedAndItsSuccessRecovers() async throws {
        let seed = MemoryTargetHealth()
        let targets = MemoryTargetHealth([Self.open(probe: 1, targets: seed)])
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let result = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: callbacks,
                                                                     targets: targets), 1)
        #expect(callbacks.sent == [1])
        #expect(result.outcome == .completed)
        #expect(DeliveryHandlerTests.write(result)?.attempt.outcome == .delivered)
        #expect(targets.target(Self.key)?.state == .healthy)
    }

    @Test func failuresOpenTheBreakerAndSuccessesOnACleanTargetWriteNothing() async throws {
        let targets = MemoryTargetHealth()
        let ok = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        _ = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: ok, targets: targets), 1)
        #expect(targets.records == 0)
        // A 410 is about the message: not counted either.
        let gone = ScriptedSender(AttemptReport(result: .permanent, statusCode: 410))
        _ = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(2)], callbacks: gone, targets: targets), 2)
        #expect(targets.records == 0)
        let failing = ScriptedSender(AttemptReport(result: .transient, statusCode: 503, error: "HTTP 503"))
        let handler = Self.handler([DeliveryHandlerTests.delivery(3), DeliveryHandlerTests.delivery(4), DeliveryHandlerTests.delivery(5)],
                                   callbacks: failing, targets: targets)
        for id in Int64(3)...4 {
            let result = try await DeliveryHandlerTests.run(handler, id)
            #expect(DeliveryHandlerTests.write(result)?.attempt.outcome == .failed)
        }
        #expect(targets.target(Self.key)?.state == .open)
        #expect(targets.target(Self.key)?.lastError == "HTTP 503")
        // The next delivery to it is held.
        let held = try await DeliveryHandlerTests.run(handler, 5)
        #expect(held.record is DeliveryHoldWrite)
        #expect(failing.sent == [3, 4])
    }
}
