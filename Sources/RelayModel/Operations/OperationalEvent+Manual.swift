public import Foundation

extension OperationalEvent {
    /// An operator's enable or disable as a transition, like the breaker's own: `target.disabled`
    /// when a target that was not disabled is, `target.enabled` when a disabled or open one is
    /// enabled; nil when the state did not change (disabling a disabled target records nothing).
    /// `by` names who, so the transition and its alerts say it.
    public static func manual(from current: TargetHealth, to next: TargetHealth, by operatorName: String,
                              at now: Date) -> OperationalEvent? {
        guard current.state != next.state else { return nil }
        let kind: OperationalKind
        switch next.state {
        case .disabled: kind = .targetDisabled
        case .healthy: kind = .targetEnabled
        case .open: return nil
        }
        return OperationalEvent(kind: kind, occurredAt: now, target: next.key, state: next.state, error: next.lastError,
                                failingSince: next.failingSince ?? current.failingSince, by: operatorName)
    }
}
