import Foundation
import Synchronization
import Testing
@testable import RelayRuntime

@Suite("Coarse timers")
struct CoarseTimersTests {
    /// Counts the times a timer fired.
    final class Fired: Sendable {
        let count = Mutex(0)
        func fire() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    @Test func aTimerFiresOnceAtItsTimeAndNeverBefore() {
        let timers = CoarseTimers(resolution: .seconds(3600))
        let fired = Fired()
        let start = ContinuousClock.now
        _ = timers.arm(after: .seconds(30)) { fired.fire() }
        #expect(timers.fireDue(now: start + .seconds(29)) == 0, "not yet due")
        #expect(fired.value == 0)
        #expect(timers.fireDue(now: start + .seconds(31)) == 1)
        #expect(timers.fireDue(now: start + .seconds(60)) == 0, "fired already")
        #expect(fired.value == 1)
        #expect(timers.count == 0)
    }

    @Test func aDisarmedTimerNeverFires() {
        let timers = CoarseTimers(resolution: .seconds(3600))
        let fired = Fired()
        let token = timers.arm(after: .seconds(1)) { fired.fire() }
        _ = timers.arm(after: .seconds(2)) { fired.fire() }
        timers.disarm(token)
        timers.disarm(token) // twice, or after it fired: nothing happens
        #expect(timers.fireDue(now: .now + .seconds(10)) == 1)
        #expect(fired.value == 1)
    }

    /// The loop sleeps until the earliest timer, within `resolution`...`longestNap`.
    @Test func theLoopNapsUntilTheEarliestTimerWithinItsBounds() {
        let timers = CoarseTimers(resolution: .milliseconds(10), longestNap: .milliseconds(100))
        let now = ContinuousClock.now
        #expect(timers.nap(now: now) == .milliseconds(100), "nothing armed")
        let far = timers.arm(after: .seconds(10)) {}
        #expect(timers.nap(now: now) == .milliseconds(100))
        // Checked from an instant taken after arming: a pause of the test's thread in between
        // can only bring the timer nearer.
        _ = timers.arm(after: .milliseconds(40)) {}
        let nap = timers.nap(now: .now)
        #expect(nap >= .milliseconds(10) && nap <= .milliseconds(40))
        _ = timers.arm(after: .zero) {}
        #expect(timers.nap(now: .now) == .milliseconds(10), "due now: the resolution")
        timers.disarm(far)
        // The largest Duration neither traps nor wraps round into an early timer.
        let huge = CoarseTimers(resolution: .milliseconds(10), longestNap: .milliseconds(100))
        _ = huge.arm(after: Duration(secondsComponent: .max, attosecondsComponent: 0)) {}
        #expect(huge.nap(now: now) == .milliseconds(100))
        #expect(huge.fireDue(now: now + .seconds(86_400 * 365)) == 0)
    }

    /// Self-ticking timers start their loop with the first timer and end it with the last, so
    /// an idle process has no loop waking it; a timer armed later starts a new one.
    @Test func selfTickingTimersTickOnlyWhileSomeAreArmed() async throws {
        let timers = CoarseTimers(resolution: .milliseconds(5), longestNap: .milliseconds(20), selfTicking: true)
        #expect(!timers.state.withLock { $0.ticking })
        for round in 1...2 {
            let fired = Fired()
            let start = ContinuousClock.now
            _ = timers.arm(after: .milliseconds(30)) { fired.fire() }
            #expect(timers.state.withLock { $0.ticking })
            while fired.value == 0, ContinuousClock.now - start < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
            #expect(fired.value == 1, "round \(round)")
            #expect(ContinuousClock.now - start >= .milliseconds(30), "not before its time")
            while timers.state.withLock({ $0.ticking }), ContinuousClock.now - start < .seconds(10) {
                try await Task.sleep(for: .milliseconds(5))
            }
            #expect(!timers.state.withLock { $0.ticking }, "the loop ended with the last timer")
        }
    }
}
