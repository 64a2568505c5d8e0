import RelayModel
import RelayQueue

extension DeliverJob {
    /// The job to enqueue for one delivery, outside a statement that writes the delivery row.
    func job() throws -> NewJob {
        try NewJob(self, uniqueKey: Self.uniqueKey(deliveryID: deliveryID), maxAttempts: Self.maxAttempts)
    }
}
