import RelayCore

/// A delivery with every attempt, as an item's detail shows it.
public struct DeliveryHistory: Sendable, Encodable, Equatable {
    public var delivery: DeliveryRecord
    public var attempts: [DeliveryAttempt]

    public init(delivery: DeliveryRecord, attempts: [DeliveryAttempt]) {
        self.delivery = delivery
        self.attempts = attempts
    }

    public var json: JSONValue {
        guard case .object(var fields) = delivery.summaryJSON else { return delivery.summaryJSON }
        fields["attempt_history"] = .array(attempts.map(\.json))
        return .object(fields)
    }

    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
