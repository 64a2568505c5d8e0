extension Duration {
    /// Whole nanoseconds: what swift-metrics timers and NIO time amounts take.
    public var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// Whole seconds rounded up, at least 1: a `Retry-After` that never asks to come back too early.
    public var retryAfterSeconds: Int {
        max(1, Int(components.seconds) + (components.attoseconds > 0 ? 1 : 0))
    }

    /// Whole milliseconds, for SQL intervals.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
