
/// A delivery with every attempt, as an item's detail shows it.
public struct DeliveryHistory: Sendable, Equatable {
    public var delivery: DeliveryRecord
    public var attempts: [DeliveryAttempt]

    public init(delivery: DeliveryRecord, attempts: [DeliveryAttempt]) {
        self.delivery = delivery
        self.attempts = attempts
    }
}
