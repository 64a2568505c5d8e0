/// When a target's breaker opens, how it probes, and when it gives up (the `target_*` settings).
public struct BreakerPolicy: Sendable, Equatable {
    /// Opens after this many failures in a row.
    public var consecutiveFailures: Int
    /// Or when at least this share of the attempts since the window's first failure failed...
    public var failureRate: Double
    /// ...counted over this window (it starts at a failure)...
    public var window: Duration
    /// ...once it holds at least this many attempts.
    public var minimumAttempts: Int
    /// The first probe waits this long after opening; each failed probe doubles the wait...
    public var firstProbe: Duration
    /// ...up to this.
    public var longestProbeWait: Duration
    /// Disabled after failing this long (from the first failure of the streak); nil: never.
    public var disableAfter: Duration?
    /// A recovered or enabled target's held deliveries are released at this rate.
    public var drainPerSecond: Int

    public init(consecutiveFailures: Int = 10, failureRate: Double = 0.5, window: Duration = .seconds(300),
                minimumAttempts: Int = 20, firstProbe: Duration = .seconds(30), longestProbeWait: Duration = .seconds(1_800),
                disableAfter: Duration? = .seconds(72 * 3_600), drainPerSecond: Int = 10) {
        self.consecutiveFailures = max(1, consecutiveFailures)
        self.failureRate = min(max(failureRate, 0.01), 1)
        self.window = window
        self.minimumAttempts = max(1, minimumAttempts)
        self.firstProbe = firstProbe
        self.longestProbeWait = max(longestProbeWait, firstProbe)
        self.disableAfter = disableAfter
        self.drainPerSecond = max(1, drainPerSecond)
    }

    public static let standard = BreakerPolicy()
}
