import Testing
@testable import RelayQueue

@Suite("Wake signals")
struct WakeSignalTests {
    @Test func aSignalSentBeforeTheWaitIsNotLost() async {
        let wake = WakeSignal()
        wake.signal()
        let start = ContinuousClock.now
        await wake.wait(timeout: .seconds(10))
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func aWaitEndsByItsTimeout() async {
        let wake = WakeSignal()
        let start = ContinuousClock.now
        await wake.wait(timeout: .milliseconds(50))
        #expect(ContinuousClock.now - start >= .milliseconds(45))
    }

    @Test func aCancelledWaitEndsAtOnce() async {
        let wake = WakeSignal()
        let waiter = Task { await wake.wait(timeout: .seconds(60)) }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        let start = ContinuousClock.now
        await waiter.value
        #expect(ContinuousClock.now - start < .seconds(5))
        // It left nothing behind: a signal sent now is kept for the next wait (not handed to the
        // cancelled one, which would lose it), and that wait ends at once.
        wake.signal()
        let next = ContinuousClock.now
        await wake.wait(timeout: .seconds(10))
        #expect(ContinuousClock.now - next < .seconds(5))
    }
}
