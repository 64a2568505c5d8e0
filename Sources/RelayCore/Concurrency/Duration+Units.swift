extension Duration {
    /// Whole nanoseconds: what swift-metrics timers and NIO time amounts take.
    public var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }

    /// Whole milliseconds, for SQL intervals.
    public var milliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
