public import RelayModel

/// `POST /v1/deliveries/{id}/retry`: the delivery as it now stands, and what happens next.
public struct APIDeliveryRetried: Encodable, Sendable {
    let delivery: APIDelivery
    let message: String

    public init(_ delivery: DeliveryRecord) {
        self.delivery = APIDelivery(delivery)
        message = "delivery \(delivery.id) will be attempted again now"
    }
}
