public import Foundation
public import RelayModel

extension RuleSet {
    /// The rate limit of the target a delivery's breaker key names (`TargetKey.keys(of:)`): a
    /// limit is set per origin (or `smtp`), so an endpoint's key is looked up by its host's. Nil
    /// for a target the `targets:` list does not limit, and at once when the list is empty.
    public func rateLimit(of key: String) -> TargetRateLimit? {
        guard !rateLimits.isEmpty else { return nil }
        return rateLimits[TargetKey.host(ofKey: key)]
    }
}

extension RuleSet {
    /// `targets` as listed (`targets list`, the API, the console) with their rate limits, and
    /// after them each limited target that has no row of its own (it never failed), healthy.
    public func withRateLimits(_ targets: [TargetSummary], now: Date = Date()) -> [TargetSummary] {
        guard !rateLimits.isEmpty else { return targets }
        var listed = targets.map { summary in
            var summary = summary
            summary.rateLimit = rateLimit(of: summary.health.key)
            return summary
        }
        let keys = Set(targets.map(\.health.key))
        for (key, limit) in rateLimits.sorted(by: { $0.key < $1.key }) where !keys.contains(key) {
            listed.append(TargetSummary(health: .healthy(key: key, at: now), held: 0, oldestHeldSince: nil, rateLimit: limit))
        }
        return listed
    }
}
