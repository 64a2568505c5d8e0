import Foundation
import Testing
@testable import RelayRuntime

@Suite("The rate budget")
struct RateBudgetTests {
    @Test func budgetAllowsItsBurstThenMakesCallersWait() async throws {
        let budget = RateBudget(ratePerSecond: 20, burst: 5)
        let start = ContinuousClock.now
        for _ in 0..<5 { try await budget.acquire() }
        // Without the burst these five would take 200 ms; the bound is loose on purpose.
        #expect(ContinuousClock.now - start < .milliseconds(150))
        for _ in 0..<4 { try await budget.acquire() }
        // Four more tokens at 20/s take about 200 ms; only a lower bound is asserted.
        #expect(ContinuousClock.now - start >= .milliseconds(150))
    }

    @Test func pauseHoldsEveryCaller() async throws {
        let budget = RateBudget(ratePerSecond: 1000, burst: 10)
        budget.pause(for: .milliseconds(200))
        let start = ContinuousClock.now
        try await budget.acquire()
        #expect(ContinuousClock.now - start >= .milliseconds(190))
    }
}


@Suite("Deadlines")
struct DeadlineTests {
    @Test func returnsTheResultWhenInTime() async throws {
        #expect(try await withDeadline(.seconds(5)) { 42 } == 42)
        await #expect(throws: CancellationError.self) { try await withDeadline(.seconds(5)) { throw CancellationError() } }
    }

    @Test func answersOnTimeEvenWhenTheOperationIgnoresCancellation() async throws {
        let started = ContinuousClock.now
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.milliseconds(100)) {
                // Sleeps on a thread, deaf to cancellation, like a query on a silent connection.
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: 10)
                        continuation.resume()
                    }
                }
                return 1
            }
        }
        // Well before the operation's 10 s, with room for a machine busy with the whole suite.
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}

@Suite("The keyed lock")
struct KeyedLockTests {
    actor Log {
        var entries: [String] = []
        var inside: [String: Int] = [:]
        var most: [String: Int] = [:]
        func enter(_ key: String) { inside[key, default: 0] += 1; most[key] = max(most[key] ?? 0, inside[key]!); entries.append("in \(key)") }
        func leave(_ key: String) { inside[key, default: 0] -= 1; entries.append("out \(key)") }
    }

    @Test func oneKeyRunsOneAtATimeOtherKeysFreely() async throws {
        let lock = KeyedLock(), log = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<12 {
                let key = n % 3 == 0 ? "b" : "a"
                group.addTask {
                    try await lock.withLock(key) {
                        await log.enter(key)
                        try await Task.sleep(for: .milliseconds(5))
                        await log.leave(key)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(await log.most == ["a": 1, "b": 1])
        #expect(await log.entries.count == 24)
        #expect(lock.heldKeys == 0)
    }

    @Test func aThrowingBodyReleasesTheKey() async throws {
        struct Boom: Error {}
        let lock = KeyedLock()
        await #expect(throws: Boom.self) { try await lock.withLock("k") { throw Boom() } }
        #expect(try await lock.withLock("k") { 7 } == 7)
        #expect(lock.heldKeys == 0)
    }
}
