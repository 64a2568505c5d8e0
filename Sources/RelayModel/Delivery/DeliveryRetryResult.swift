/// What `deliveries retry` did.
public enum DeliveryRetryResult: Sendable, Equatable {
    /// A new attempt is queued now.
    case queued
    /// Already delivered: nothing to do (send it again by hand if that is really wanted).
    case alreadyDelivered
    /// An attempt is running right now.
    case inFlight
    /// Its payload was removed (`expired` by retention, or `erased`): there is nothing to send.
    case payloadRemoved(String)
    case notFound
}
