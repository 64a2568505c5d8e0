import Synchronization

/// Caps the attempts in flight per target (a callback host, or the SMTP server), so one slow
/// or failing target cannot take every worker slot: over the cap, a job snoozes instead.
public final class TargetLimiter: Sendable {
    let limit: Int
    private let inFlight = Mutex<[String: Int]>([:])

    public init(limit: Int) {
        self.limit = limit
    }

    /// True when a slot was taken; call `release` with the same target afterwards.
    public func acquire(_ target: String) -> Bool {
        inFlight.withLock { counts in
            let current = counts[target, default: 0]
            guard current < limit else { return false }
            counts[target] = current + 1
            return true
        }
    }

    public func release(_ target: String) {
        inFlight.withLock { counts in
            let remaining = counts[target, default: 1] - 1
            counts[target] = remaining > 0 ? remaining : nil
        }
    }
}
