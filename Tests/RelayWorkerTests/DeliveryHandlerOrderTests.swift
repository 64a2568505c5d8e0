import Foundation
import RelayModel
import RelayQueue
import RelayStore
@testable import RelayWorker
import Testing

/// Order per item and target in the deliver handler, on in-memory ports: a delivery its load
/// found behind an earlier unsettled one is held, not attempted, and its job looks again no
/// sooner than that one's next attempt.
@Suite("The deliver handler's order per item and target")
struct DeliveryHandlerOrderTests {
    static func handler(_ deliveries: [DeliveryRecord], callbacks: ScriptedSender) -> DeliveryHandler {
        DeliveryHandler(deliveries: MemoryDeliveries(deliveries), email: nil, callbacks: callbacks, schedule: DeliveryHandlerTests.schedule,
                        limiter: TargetLimiter(limit: 4), outcomes: WritesWithTheJob(), workerID: "worker-1", logger: DeliveryHandlerTests.logger)
    }

    @Test func aDeliveryBehindAnUnsettledOneIsHeldWithoutAnAttempt() async throws {
        var later = DeliveryHandlerTests.delivery(2, attempts: 0)
        later.orderBlocker = DeliveryOrderBlocker(id: 1, dueIn: .seconds(30))
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let result = try await DeliveryHandlerTests.run(Self.handler([later], callbacks: callbacks), 2)
        #expect(callbacks.sent.isEmpty)
        let hold = try #require(result.record as? DeliveryOrderHoldWrite)
        #expect(hold.deliveryID == 2 && hold.behind == 1)
        guard case .snooze(let wait) = result.outcome else { Issue.record("not snoozed: \(result.outcome)"); return }
        #expect(wait == hold.recheckIn)
        #expect(wait >= .seconds(31) * 0.9 && wait <= .seconds(31) * 1.1)
    }

    @Test func aDeliveryWithNothingBeforeItIsAttempted() async throws {
        let callbacks = ScriptedSender(AttemptReport(result: .delivered, statusCode: 200))
        let result = try await DeliveryHandlerTests.run(Self.handler([DeliveryHandlerTests.delivery(2)], callbacks: callbacks), 2)
        #expect(callbacks.sent == [2])
        #expect(DeliveryHandlerTests.write(result)?.attempt.outcome == .delivered)
    }

    /// The recheck only bounds a lost wake-up: never before the earlier one's next attempt
    /// (nothing but its attempt or a redrive settles it, and both wake this one), soon while it
    /// is being sent, longer the longer it waits in a backlog (at most 5 s: a lost wake-up waits no longer), and ten minutes while it has no
    /// attempt scheduled (held by its target's breaker).
    @Test(arguments: [
        (Duration?.none, Duration.seconds(600)),
        (.seconds(30), .seconds(31)),
        (.seconds(86_400), DeliveryHandler.holdRecheck),
        (.milliseconds(-200), .seconds(1)),
        (.zero, .seconds(1)),
        (.seconds(-3), .seconds(3)),
        (.seconds(-900), .seconds(5)),
    ])
    func recheck(dueIn: Duration?, expected: Duration) {
        #expect(DeliveryHandler.orderRecheck(after: DeliveryOrderBlocker(id: 1, dueIn: dueIn)) == expected)
    }
}
