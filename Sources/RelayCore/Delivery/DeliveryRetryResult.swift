/// What `deliveries retry` did.
public enum DeliveryRetryResult: Sendable, Equatable {
    /// A new attempt is queued now.
    case queued
    /// Already delivered: nothing to do (send it again by hand if that is really wanted).
    case alreadyDelivered
    /// An attempt is running right now.
    case inFlight
    case notFound
}
