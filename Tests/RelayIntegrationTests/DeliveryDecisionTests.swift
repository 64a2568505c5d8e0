import RelayNotify
import RelayWorker
import Testing

/// How a callback's answer becomes an attempt's outcome, and the per-target cap. No I/O.
@Suite("Delivery decisions")
struct DeliveryDecisionTests {
    func report(_ status: Int, retryAfter: Duration? = nil, location: String? = nil) -> AttemptReport {
        CallbackDeliverer.report(for: CallbackResponse(status: status, retryAfter: retryAfter, excerpt: "body", location: location))
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
        let moved = report(301, location: "https://elsewhere.example/")
        #expect(moved.result == .transient)
        #expect(moved.error == "HTTP 301 redirect to https://elsewhere.example/ not followed")
        #expect(report(500).excerpt == "body")
    }

    @Test func targetLimiterCapsEachTargetSeparately() {
        let limiter = TargetLimiter(limit: 2)
        #expect(limiter.acquire("a") && limiter.acquire("a"))
        #expect(!limiter.acquire("a"))
        #expect(limiter.acquire("b"))
        limiter.release("a")
        #expect(limiter.acquire("a"))
    }
}
