/// Transitions of the relay's own deliveries and targets, which rules can match like an
/// item's (`when: {transition: [delivery.dead]}`), so someone is told when a partner fails.
/// A rule matches them only when it names them: a rule with no `transition` list still
/// matches item transitions only.
public enum OperationalKind: String, Sendable, Codable, CaseIterable {
    /// A delivery spent its attempts (or was refused for good). Not raised for an
    /// operational delivery, so an alert that cannot be sent never alerts about itself.
    case deliveryDead = "delivery.dead"
    case targetOpened = "target.opened"
    case targetDisabled = "target.disabled"
    case targetRecovered = "target.recovered"
    /// An operator enabled a disabled or open target (`by` names who); `target.recovered` is
    /// the breaker's own closing after a probe succeeded.
    case targetEnabled = "target.enabled"

    public init(_ change: TargetChange) {
        switch change {
        case .opened: self = .targetOpened
        case .disabled: self = .targetDisabled
        case .recovered: self = .targetRecovered
        }
    }
}
