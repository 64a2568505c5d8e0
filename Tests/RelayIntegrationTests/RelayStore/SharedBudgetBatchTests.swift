import Foundation
import RelayRuntime
@testable import RelayStore
import Testing

/// A busy process takes several places in one statement: as many as the window has room for,
/// recorded like single ones, so the limit holds however they are taken.
@Suite("The shared API budget, places taken several at once", .timeLimit(.minutes(2)))
struct SharedBudgetBatchTests {
    @Test func aBatchTakesWhatTheWindowHasRoomForAndNoMore() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let budget = PostgresAPIBudget(client: client, ratePerSecond: 10, logger: TestDatabase.logger)
            var taken: [Int] = []
            #expect(try await budget.take(allowed: 10, places: 4) { taken.append($0) } == nil)
            #expect(try await budget.take(allowed: 10, places: 9) { taken.append($0) } == nil)
            #expect(taken == [4, 6], "the second had room for 6 of its 9")
            #expect(try await TestDatabase.scalar(db, "SELECT cardinality(recent) FROM api_budget") == 10)
            let wait = try #require(try await budget.take(allowed: 10, places: 3) { taken.append($0) })
            #expect(wait > .zero && wait <= .milliseconds(1_201), "full: wait for the oldest to leave the window")
            #expect(taken == [4, 6])
        }
    }

    /// A process that keeps asking takes its places in batches after its first slot, each
    /// recorded in the window. (Slots of 200 ms, so that a loaded
    /// machine's slow statements still ask several times a slot.)
    @Test func aBusyProcessTakesItsPlacesInBatchesWithinTheLimit() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let budget = PostgresAPIBudget(client: client, ratePerSecond: 2_000, aheadSlot: .milliseconds(200), logger: TestDatabase.logger)
            let started = ContinuousClock.now
            var acquired = 0
            while ContinuousClock.now - started < .milliseconds(1_000) && acquired < 300 {
                try await budget.acquire(.webhook)
                acquired += 1
            }
            // One statement records its places at one time: distinct times count the statements.
            let recorded = try await TestDatabase.scalar(db, "SELECT cardinality(recent) FROM api_budget")
            let statements = try await TestDatabase.scalar(db, "SELECT count(DISTINCT t)::int FROM api_budget, unnest(recent) AS t")
            #expect(acquired >= 20)
            #expect(recorded >= acquired, "every place used was recorded")
            #expect(statements * 2 < acquired, "\(statements) statements for \(acquired) places")
        }
    }
}
