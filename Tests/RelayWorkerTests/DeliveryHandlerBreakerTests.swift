import Foundation
import Logging
import RelayModel
import RelayQueue
import RelayStore
import RelayWorker
import Testing

/// The deliver handler and its target's breaker, on in-memory ports.
@Suite("The deliver handler's breaker")
struct DeliveryHandlerBreakerTests {
    /// The endpoint of `DeliveryHandlerTests.delivery`'s URL.
    static let key = TargetKey.endpoint(of: "https://Partner.Example/hook")
    static let breaker = TargetBreaker(policy: BreakerPolicy(consecutiveFailures: 2))

    static func handler(_ deliveries: [DeliveryRecord], callbacks: ScriptedSender, targets: MemoryTargetHealth) -> DeliveryHandler {
        DeliveryHandler(deliveries: MemoryDeliveries(deliveries), email: nil, callbacks: callbacks, schedule: DeliveryHandlerTests.schedule,
                        limiter: TargetLimiter(limit: 4), targets: targets, breaker: breaker, outcomes: WritesWithTheJob(), workerID: "worker-1",
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
        let healthy = TargetHealth(id: 1, key: Self.key, stateSince: held.heldSince ?? Date())
        let result = try await DeliveryHandlerTests.run(Self.handler([held], callbacks: callbacks, targets: MemoryTargetHealth([healthy])), 1)
        // Woken on its own (its hour is up): the drain, not the wake-up, sets the pace.
        #expect(callbacks.sent.isEmpty)
        #expect(result.record is DeliveryHoldWrite)
    }

    /// Held under a key no drain serves any more (an origin, as before migration 0033, left by
    /// an older replica): attempted, not held again under a key nothing would release.
    @Test func aDeliveryHeldUnderAnOldKeyIsNotStrandedThere() async throws {
        var held = DeliveryHandlerTests.delivery(1)
        held.heldBy = "https://partner.example"
        held.heldSince = Date(timeIntervalSince1970: 1_800_000_000)
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let result = try await DeliveryHandlerTests.run(Self.handler([held], callbacks: callbacks, targets: MemoryTargetHealth()), 1)
        #expect(callbacks.sent == [1])
        #expect(DeliveryHandlerTests.write(result)?.attempt.outcome == .delivered)
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

    /// Issue 42, finding 2: a message the endpoint refuses (422) fails alone: it retries on its
    /// schedule, counts nothing against the endpoint, and is marked as failing on its own.
    @Test func aMessageTheEndpointRefusesCountsNothingAgainstIt() async throws {
        let targets = MemoryTargetHealth()
        let refused = ScriptedSender(AttemptReport(result: .transient, statusCode: 422, error: "HTTP 422", cause: .delivery))
        let handler = Self.handler((1...5).map { DeliveryHandlerTests.delivery($0) }, callbacks: refused, targets: targets)
        for id in Int64(1)...5 {
            let write = DeliveryHandlerTests.write(try await DeliveryHandlerTests.run(handler, id))
            #expect(write?.attempt.outcome == .failed)
            #expect(write?.ownFailure == true)
        }
        #expect(targets.records == 0)
        #expect(refused.sent == [1, 2, 3, 4, 5])
        let failing = ScriptedSender(AttemptReport(result: .transient, statusCode: 503, error: "HTTP 503"))
        let write = DeliveryHandlerTests.write(try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(6)], callbacks: failing,
                                                                                               targets: targets), 6))
        #expect(write?.ownFailure == false)
        #expect(targets.records == 1)
    }

    /// A probe refused for its own reasons says nothing of the endpoint: its claim is freed, and
    /// the next probe comes after the same wait, not a doubled one.
    @Test func aProbeRefusedForItsOwnReasonsOnlyFreesItsClaim() async throws {
        let seed = MemoryTargetHealth()
        let targets = MemoryTargetHealth([Self.open(probe: 1, targets: seed)])
        let refused = ScriptedSender(AttemptReport(result: .transient, statusCode: 422, error: "HTTP 422", cause: .delivery))
        _ = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(1)], callbacks: refused, targets: targets), 1)
        let health = try #require(targets.target(Self.key))
        #expect(refused.sent == [1])
        #expect(health.state == .open)
        #expect(health.probeDeliveryID == nil && health.probeUntil == nil)
        #expect(health.probeWait == .seconds(30))
        #expect(health.nextProbeAt == seed.now.addingTimeInterval(30))
        #expect(health.consecutiveFailures == 2)
    }
}
