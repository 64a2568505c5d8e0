public import RelayModel
public import RelayRules

/// What the deliver handler throttles by: the rate limits of the rules in force (`rules`, read
/// at each delivery so a SIGHUP reload applies) and the slots every replica shares (`slots`).
public struct DeliveryThrottle: Sendable {
    let limits: @Sendable () -> RuleSet
    let slots: any TargetThrottling
    /// The longest a put-off delivery sleeps before it asks again (`ThrottleAnswer.longestSnooze`).
    let longestSnooze: Duration
    /// Where a put-off delivery's next attempt time is written with its snooze; nil writes none.
    let records: (any DeliveryThrottleRecording)?

    /// - Parameter rules: the rules in force, e.g. `{ rulesStore.current }`.
    public init(rules: @escaping @Sendable () -> RuleSet, slots: any TargetThrottling,
                longestSnooze: Duration = ThrottleAnswer.longestSnooze, records: (any DeliveryThrottleRecording)? = nil) {
        self.limits = rules
        self.slots = slots
        self.longestSnooze = longestSnooze
        self.records = records
    }
}
