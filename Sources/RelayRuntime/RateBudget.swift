import RelayModel
import Synchronization

/// A token bucket shared by every task of a process that calls one API: at most `rate`
/// requests per second on average, with bursts up to `burst`. `acquire()` waits for a
/// token instead of failing, and `pause(for:)` empties the bucket when the server says 429,
/// so all callers back off together.
public final class RateBudget: Sendable {
    struct State {
        var tokens: Double
        var updated: ContinuousClock.Instant
        var pausedUntil: ContinuousClock.Instant
    }

    public let rate: Double
    public let burst: Double
    private let state: Mutex<State>

    public init(ratePerSecond: Double, burst: Double? = nil) {
        rate = max(ratePerSecond, 0.001)
        self.burst = max(burst ?? max(1, ratePerSecond), 1)
        let now = ContinuousClock.now
        state = Mutex(State(tokens: self.burst, updated: now, pausedUntil: now))
    }

    /// Waits until a request may be sent.
    public func acquire() async throws {
        while true {
            let wait = state.withLock { state -> Duration? in
                let now = ContinuousClock.now
                if now < state.pausedUntil { return state.pausedUntil - now }
                let elapsed = now - state.updated
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                state.tokens = min(burst, state.tokens + seconds * rate)
                state.updated = now
                if state.tokens >= 1 {
                    state.tokens -= 1
                    return nil
                }
                return .milliseconds(Int64(((1 - state.tokens) / rate) * 1000) + 1)
            }
            guard let wait else { return }
            try await Task.sleep(for: wait)
        }
    }

    /// How long callers must still wait after a 429, or nil when not paused.
    public var pausedFor: Duration? {
        state.withLock { state in
            let now = ContinuousClock.now
            return now < state.pausedUntil ? state.pausedUntil - now : nil
        }
    }

    /// Stops every caller until `duration` has passed (a 429's `Retry-After`).
    public func pause(for duration: Duration) {
        state.withLock { state in
            let until = ContinuousClock.now + duration
            if until > state.pausedUntil { state.pausedUntil = until }
            state.tokens = 0
        }
    }
}
