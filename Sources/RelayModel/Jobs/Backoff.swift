/// Exponential backoff with full jitter, capped: retry N waits a random time between half and
/// all of `base * 2^(N-1)` (at most `cap`), so a burst of failures does not retry in lockstep.
public struct Backoff: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(3600)) {
        self.base = base
        self.cap = cap
    }

    /// - Parameters:
    ///   - attempt: the attempt that just failed, from 1.
    ///   - unit: a random number in 0..<1 (injected so tests are exact).
    public func delay(afterAttempt attempt: Int, unit: Double) -> Duration {
        let exponent = min(max(attempt - 1, 0), 40)
        let full = min(base * Double(1 << min(exponent, 30)), cap)
        let fraction = 0.5 + 0.5 * min(max(unit, 0), 1)
        return full * fraction
    }

    public func delay(afterAttempt attempt: Int) -> Duration {
        delay(afterAttempt: attempt, unit: Double.random(in: 0..<1))
    }
}
