public import RelayModel

/// Makes one attempt at a delivery on one channel and reports how it went; never throws (a
/// failure is a report). `CallbackDeliverer` (signed HTTP) and `EmailDeliverer` (SMTP).
public protocol DeliverySending: Sendable {
    func deliver(_ delivery: DeliveryRecord) async -> AttemptReport
}

extension CallbackDeliverer: DeliverySending {}
extension EmailDeliverer: DeliverySending {}
