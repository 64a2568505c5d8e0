public import RelayModel
public import RelayRules

/// What the deliver handler throttles by: the rate limits of the rules in force (`rules`, read
/// at each delivery so a SIGHUP reload applies) and the slots every replica shares (`slots`).
public struct DeliveryThrottle: Sendable {
    let limits: @Sendable () -> RuleSet
    let slots: any TargetThrottling

    /// - Parameter rules: the rules in force, e.g. `{ rulesStore.current }`.
    public init(rules: @escaping @Sendable () -> RuleSet, slots: any TargetThrottling) {
        self.limits = rules
        self.slots = slots
    }
}
