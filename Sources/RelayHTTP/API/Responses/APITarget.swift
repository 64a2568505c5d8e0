public import RelayModel
import Foundation

/// A delivery target's health and backlog, as `GET /v1/targets` and `targets list --json` show it.
public struct APITarget: Encodable, Sendable {
    let id: Int64
    let target: String
    let state: String
    let stateSince: Date
    @AlwaysPresent var failingSince: Date?
    let consecutiveFailures: Int
    @AlwaysPresent var lastError: String?
    @AlwaysPresent var lastFailureAt: Date?
    @AlwaysPresent var lastSuccessAt: Date?
    /// While open: when the next probe is due.
    @AlwaysPresent var nextProbeAt: Date?
    /// While disabled: `breaker` or who disabled it.
    @AlwaysPresent var disabledBy: String?
    /// Deliveries held for it now, and since when the oldest.
    let held: Int
    @AlwaysPresent var oldestHeldSince: Date?
    /// The rules file's rate limit for it (`5/s`, `30/m`); null: none.
    @AlwaysPresent var rateLimit: String?

    enum CodingKeys: String, CodingKey {
        case id, target, state, stateSince = "state_since", failingSince = "failing_since"
        case consecutiveFailures = "consecutive_failures", lastError = "last_error", lastFailureAt = "last_failure_at"
        case lastSuccessAt = "last_success_at", nextProbeAt = "next_probe_at", disabledBy = "disabled_by", held
        case oldestHeldSince = "oldest_held_since", rateLimit = "rate_limit"
    }

    public init(_ summary: TargetSummary) {
        let health = summary.health
        id = health.id ?? 0
        target = health.key
        state = health.state.rawValue
        stateSince = health.stateSince
        failingSince = health.failingSince
        consecutiveFailures = health.consecutiveFailures
        lastError = health.lastError
        lastFailureAt = health.lastFailureAt
        lastSuccessAt = health.lastSuccessAt
        nextProbeAt = health.state == .open ? health.nextProbeAt : nil
        disabledBy = health.state == .disabled ? health.disabledBy : nil
        held = summary.held
        oldestHeldSince = summary.oldestHeldSince
        rateLimit = summary.rateLimit?.text
    }
}
