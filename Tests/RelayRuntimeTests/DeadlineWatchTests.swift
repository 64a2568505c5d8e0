import Foundation
import RelayRuntime
import Synchronization
import Testing

@Suite("One timer for many deadlines")
struct DeadlineWatchTests {
    @Test func returnsResultsAndErrorsAndWatchesNothingAfterwards() async throws {
        let watch = DeadlineWatch()
        #expect(try await watch.watch(.seconds(5)) { 42 } == 42)
        await #expect(throws: CancellationError.self) { try await watch.watch(.seconds(5)) { throw CancellationError() } }
        #expect(watch.count == 0)
    }

    /// The deadline is the watch's: an expiry check past it answers the caller at once, though
    /// the operation ignores cancellation (it sleeps on a thread of its own for 10 s).
    @Test func aCheckPastTheDeadlineAnswersEvenWhenTheOperationIgnoresCancellation() async throws {
        let watch = DeadlineWatch(resolution: .seconds(3600))
        let started = ContinuousClock.now
        let caller = Task {
            try await watch.watch(.seconds(30)) {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        Thread.sleep(forTimeInterval: 10)
                        continuation.resume()
                    }
                }
                return 1
            }
        }
        while watch.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watch.expire(now: .now + .seconds(29)) == 0, "not yet due")
        #expect(watch.expire(now: .now + .seconds(31)) == 1)
        await #expect(throws: DeadlineExceeded.self) { try await caller.value }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(watch.count == 0)
    }

    /// With its loop running, the watch ends a late operation within its resolution.
    @Test func theLoopExpiresALateOperation() async throws {
        let watch = DeadlineWatch(resolution: .milliseconds(20))
        let loop = Task { await watch.run() }
        defer { loop.cancel() }
        await #expect(throws: DeadlineExceeded.self) {
            try await watch.watch(.milliseconds(50)) {
                try? await Task.sleep(for: .seconds(30))
                return 1
            }
        }
    }

    /// A limit of any size is taken: the largest Duration neither traps (the instant is kept in
    /// 128 bits) nor wraps round into an early expiry.
    @Test func hugeLimitsNeitherTrapNorExpire() async throws {
        let watch = DeadlineWatch(resolution: .seconds(3600))
        #expect(try await watch.watch(Duration(secondsComponent: .max, attosecondsComponent: 0)) { 7 } == 7)
        let caller = Task { try await watch.watch(Duration(secondsComponent: .max, attosecondsComponent: 0)) { try await Task.sleep(for: .seconds(30)); return 1 } }
        while watch.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watch.expire(now: .now + .seconds(86_400 * 365)) == 0)
        caller.cancel()
        _ = await caller.result
    }

    @Test func aCancelledCallerIsAnsweredAtOnce() async throws {
        let watch = DeadlineWatch(resolution: .seconds(3600))
        let caller = Task {
            try await watch.watch(.seconds(30)) {
                try? await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        while watch.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        caller.cancel()
        await #expect(throws: CancellationError.self) { try await caller.value }
        #expect(watch.count == 0)
    }
}
