@testable import RelayStore
import RelayRuntime
import Testing

/// Places taken ahead in the shared API budget: a busy process takes a slot's worth in one
/// statement and spends them within the slot; a quiet one takes one at a time.
@Suite("API budget places taken ahead")
struct APIBudgetReservoirTests {
    static let start = ContinuousClock.now

    /// The batch the next statement would ask for, answered at once.
    static func batch(_ reservoir: APIBudgetReservoir) -> Int {
        let places = reservoir.batchSize()
        reservoir.settle(places)
        return places
    }

    @Test func theBatchFollowsWhatTheLastSlotAskedForUpToItsCap() {
        let reservoir = APIBudgetReservoir(limit: 400)
        #expect(reservoir.cap == 8, "a fiftieth of the limit")
        #expect(Self.batch(reservoir) == 1, "nothing asked yet: one place")
        for n in 0..<12 { #expect(!reservoir.draw(.webhook, now: Self.start + .milliseconds(n))) }
        #expect(Self.batch(reservoir) == 1, "the slot asking is not over yet")
        _ = reservoir.draw(.webhook, now: Self.start + .milliseconds(60))
        #expect(Self.batch(reservoir) == 8, "12 asked in the last slot, capped at 8")
        _ = reservoir.draw(.webhook, now: Self.start + .milliseconds(300))
        #expect(Self.batch(reservoir) == 1, "slots with nothing asked in between: one place again")
        #expect(APIBudgetReservoir(limit: 10).cap == 1, "a small limit is never taken ahead")
        #expect(APIBudgetReservoir(limit: 100_000).cap == 16)
    }

    /// A burst of callers that all find none: the first asks for the batch, the rest for one each.
    @Test func statementsInFlightCountAgainstTheNextBatch() {
        let reservoir = APIBudgetReservoir(limit: 1_000)
        for n in 0..<30 { _ = reservoir.draw(.webhook, now: Self.start + .milliseconds(n)) }
        _ = reservoir.draw(.webhook, now: Self.start + .milliseconds(55))
        let first = reservoir.batchSize()
        let second = reservoir.batchSize()
        #expect(first == 16 && second == 1)
        reservoir.settle(first)
        reservoir.settle(second)
        #expect(reservoir.batchSize() == 16, "answered: the next asks for a batch again")
    }

    @Test func placesKeptAreDrawnWithinTheSlotByTheirPriorityOnly() {
        let reservoir = APIBudgetReservoir(limit: 1_000)
        reservoir.keep(2, for: .webhook, now: Self.start)
        #expect(!reservoir.draw(.background, now: Self.start), "a webhook's places are not background work's")
        #expect(reservoir.draw(.webhook, now: Self.start + .milliseconds(10)))
        #expect(reservoir.draw(.webhook, now: Self.start + .milliseconds(20)))
        #expect(!reservoir.draw(.webhook, now: Self.start + .milliseconds(30)), "both spent")
        reservoir.keep(3, for: .webhook, now: Self.start + .milliseconds(100))
        #expect(!reservoir.draw(.webhook, now: Self.start + .milliseconds(151)), "older than a slot: dropped")
        reservoir.keep(3, for: .webhook, now: Self.start + .milliseconds(200))
        reservoir.empty()
        #expect(!reservoir.draw(.webhook, now: Self.start + .milliseconds(201)), "a 429 drops them all")
        reservoir.keep(0, for: .webhook, now: Self.start + .milliseconds(300))
        #expect(!reservoir.draw(.webhook, now: Self.start + .milliseconds(301)))
    }
}
