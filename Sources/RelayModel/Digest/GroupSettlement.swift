/// What one email of a group (`EmailGroup`) did to one of the deliveries it carried: the
/// attempt to record for it and its new state (`attempt.outcome`), due again in `retryIn`
/// when failed. The store writes every member's in one statement.
public struct GroupSettlement: Sendable, Equatable {
    public var deliveryID: Int64
    public var attempt: DeliveryAttempt
    public var retryIn: Duration?
    /// It failed for reasons of its own (`FailureCause.delivery`).
    public var ownFailure: Bool

    public init(deliveryID: Int64, attempt: DeliveryAttempt, retryIn: Duration?, ownFailure: Bool) {
        self.deliveryID = deliveryID
        self.attempt = attempt
        self.retryIn = retryIn
        self.ownFailure = ownFailure
    }
}
