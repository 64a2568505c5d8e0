import RelayCore

/// How the item repository turns new transitions into deliveries inside its transaction:
/// `plan` is pure (the rules engine), `maxAttempts` sizes the delivery jobs.
public struct DeliveryPlanning: Sendable {
    public var plan: @Sendable (EntrupyItem, [RecordedTransition]) -> [PlannedDelivery]
    public var maxAttempts: Int

    public init(maxAttempts: Int, plan: @escaping @Sendable (EntrupyItem, [RecordedTransition]) -> [PlannedDelivery]) {
        self.plan = plan
        self.maxAttempts = maxAttempts
    }
}
