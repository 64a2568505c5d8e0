public import RelayModel

/// A delivery with every attempt, as an item's detail shows it.
public struct APIDeliveryHistory: Encodable, Sendable {
    let delivery: APIDelivery
    let attemptHistory: [APIDeliveryAttempt]

    public init(_ history: DeliveryHistory) {
        delivery = APIDelivery(history.delivery)
        attemptHistory = history.attempts.map(APIDeliveryAttempt.init)
    }

    enum CodingKeys: String, CodingKey {
        case attemptHistory = "attempt_history"
    }

    public func encode(to encoder: any Encoder) throws {
        try delivery.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(attemptHistory, forKey: .attemptHistory)
    }
}
