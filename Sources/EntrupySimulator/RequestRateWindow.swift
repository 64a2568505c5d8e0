/// Finds the most requests that arrived within any one second: each arrival counts the
/// arrivals of the second before it (inclusive), and the largest count is kept.
struct RequestRateWindow: Sendable {
    private var times: [Double] = []
    private var first = 0
    private(set) var peak = 0

    /// Records an arrival at `now` (seconds, never decreasing by more than clock jitter).
    mutating func record(at now: Double) {
        times.append(now)
        while first < times.count, times[first] <= now - 1 { first += 1 }
        peak = max(peak, times.count - first)
        if first > 4096, first * 2 > times.count {
            times.removeFirst(first)
            first = 0
        }
    }
}
