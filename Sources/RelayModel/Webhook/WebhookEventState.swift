/// A stored webhook event's life. The receiver sets the first three; only `queued` ones get a
/// reconcile job. A signed event is never dropped, whatever state it is in.
public enum WebhookEventState: String, Sendable, CaseIterable {
    /// JSON object with an Entrupy ID or a customer item ID: a reconcile job was enqueued.
    case queued
    /// Valid JSON object, but none of the known identifier paths held a value.
    case unrecognised
    /// Not JSON, or JSON that is not an object.
    case unparseable
    /// Reconciled by a worker (set later, never by the receiver).
    case processed
    /// The worker gave up on it (set later, never by the receiver). A redelivery queues it again.
    case failed
}
