import Synchronization

/// Counts failed sign-ins per client address in fixed windows: after `limit` failures in
/// one window the address is refused until the window ends, whatever it sends. Memory is
/// bounded: past `maxTracked` addresses, finished windows are dropped first, then the oldest.
public final class FailedAttemptLimiter: Sendable {
    struct Window {
        var started: ContinuousClock.Instant
        var failures: Int
    }

    public let limit: Int
    public let window: Duration
    let maxTracked: Int
    private let windows = Mutex<[String: Window]>([:])

    public init(limit: Int, window: Duration, maxTracked: Int = 10_000) {
        self.limit = max(limit, 1)
        self.window = window
        self.maxTracked = max(maxTracked, 1)
    }

    /// How long `client` must still wait, or nil when it may try.
    public func retryAfter(_ client: String, at now: ContinuousClock.Instant = .now) -> Duration? {
        windows.withLock { windows in
            guard let entry = windows[client] else { return nil }
            let ends = entry.started + window
            if now >= ends {
                windows[client] = nil
                return nil
            }
            return entry.failures >= limit ? ends - now : nil
        }
    }

    /// Records a failure; returns the wait when this one used up the allowance.
    @discardableResult
    public func recordFailure(_ client: String, at now: ContinuousClock.Instant = .now) -> Duration? {
        windows.withLock { windows in
            var entry = windows[client] ?? Window(started: now, failures: 0)
            if now >= entry.started + window { entry = Window(started: now, failures: 0) }
            entry.failures += 1
            windows[client] = entry
            if windows.count > maxTracked { Self.evict(&windows, now: now, window: window, keep: maxTracked) }
            return entry.failures >= limit ? entry.started + window - now : nil
        }
    }

    public var trackedCount: Int { windows.withLock { $0.count } }

    private static func evict(_ windows: inout [String: Window], now: ContinuousClock.Instant, window: Duration, keep: Int) {
        windows = windows.filter { now < $0.value.started + window }
        if windows.count > keep {
            // Drop a tenth more than needed, so a flood of new addresses sorts once per many failures.
            let excess = windows.count - keep + keep / 10
            let oldest = windows.sorted { $0.value.started < $1.value.started }.prefix(excess)
            for (key, _) in oldest { windows[key] = nil }
        }
    }
}
