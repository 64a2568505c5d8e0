extension Duration {
    /// Whole seconds rounded up, at least 1: a `Retry-After` that never asks to come back too early.
    public var retryAfterSeconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int32.max) else { return Int(Int32.max) }
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }

    /// Whole milliseconds, for SQL intervals. Saturates instead of trapping.
    public var milliseconds: Int64 {
        Self.saturating(components, scale: 1000, attosecondsPerUnit: 1_000_000_000_000_000)
    }

    private static func saturating(_ components: (seconds: Int64, attoseconds: Int64), scale: Int64, attosecondsPerUnit: Int64) -> Int64 {
        let limit: Int64 = components.seconds < 0 ? .min : .max
        let (scaled, overflow) = components.seconds.multipliedReportingOverflow(by: scale)
        if overflow { return limit }
        let (total, overflowAgain) = scaled.addingReportingOverflow(components.attoseconds / attosecondsPerUnit)
        return overflowAgain ? limit : total
    }
}

extension Duration {
    /// In seconds, as a `TimeInterval` (for `Date` arithmetic).
    public var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
