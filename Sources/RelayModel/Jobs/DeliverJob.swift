/// `deliver {delivery_id}`: the next attempt at one delivery. At most one unfinished per
/// delivery (its unique key). The delivery row decides everything else.
public struct DeliverJob: RowJobArgs, Equatable {
    public static let kind = "deliver"
    public var deliveryID: Int64

    enum CodingKeys: String, CodingKey {
        case deliveryID = "delivery_id"
    }

    public init(deliveryID: Int64) {
        self.deliveryID = deliveryID
    }

    public static func uniqueKey(deliveryID: Int64) -> String { uniqueKeyPrefix + String(deliveryID) }

    /// The key of its one argument: the queue builds the arguments in SQL (`RowJobArgs`).
    public static let idArgument = CodingKeys.deliveryID.stringValue
    /// Its unique key is this and the delivery's ID: one unfinished job per delivery.
    public static let uniqueKeyPrefix = "delivery:"

    /// Deliver jobs never run out of attempts by failing: each failed attempt reschedules the
    /// job (a snooze). Only errors of the relay itself (the database) spend these.
    public static let maxAttempts = 25
}
