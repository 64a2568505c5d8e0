import RelayNotify
import RelayWorker
import Testing

/// How a callback's answer becomes an attempt's outcome, and the per-target cap. No I/O.
@Suite("Delivery decisions")
struct DeliveryDecisionTests {
    func report(_ status: Int, retryAfter: Duration? = nil) -> AttemptReport {
        CallbackDeliverer.report(for: CallbackResponse(status: status, retryAfter: retryAfter, excerpt: "body"))
    }

    @Test func statusCodesMapToOutcomes() {
        #expect(report(200).result == .delivered)
        #expect(report(204).result == .delivered)
        #expect(report(410).result == .permanent)
        #expect(report(500).result == .transient)
        #expect(report(404).result == .transient)
        let limited = report(429, retryAfter: .seconds(30))
        #expect(limited.result == .transient && limited.retryAfter == .seconds(30))
        #expect(report(503, retryAfter: .seconds(5)).retryAfter == .seconds(5))
        #expect(report(500, retryAfter: .seconds(5)).retryAfter == nil, "only 429 and 503 set the wait")
        let moved = report(301)
        #expect(moved.result == .transient)
        #expect(moved.error == "HTTP 301 redirect not followed (its Location is not kept: it may carry a secret)")
        #expect(report(500).excerpt == "body")
    }

    @Test func targetLimiterCapsEachTargetSeparately() async {
        let limiter = TargetLimiter(limit: 2, patience: .milliseconds(50))
        #expect(await limiter.acquire("a"))
        #expect(await limiter.acquire("a"))
        #expect(await !limiter.acquire("a"), "over the cap, a waiter gives up after its patience")
        #expect(await limiter.acquire("b"))
        limiter.release("a")
        #expect(await limiter.acquire("a"))
    }

    @Test func targetLimiterHandsAFreedSlotToAWaiter() async {
        let limiter = TargetLimiter(limit: 1, patience: .seconds(30))
        #expect(await limiter.acquire("a"))
        let waiter = Task { await limiter.acquire("a") }
        try? await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        limiter.release("a")
        #expect(await waiter.value, "the waiter gets the released slot")
        #expect(ContinuousClock.now - started < .seconds(10), "without waiting out its patience")
    }

    @Test func targetLimiterBoundsItsWaiters() async {
        let limiter = TargetLimiter(limit: 1, patience: .seconds(30))
        #expect(await limiter.acquire("a"))
        let waiter = Task { await limiter.acquire("a") }
        try? await Task.sleep(for: .milliseconds(50))
        let started = ContinuousClock.now
        #expect(await !limiter.acquire("a"), "a second waiter over a cap of 1 snoozes at once")
        #expect(ContinuousClock.now - started < .seconds(10))
        limiter.release("a")
        #expect(await waiter.value)
    }
}
