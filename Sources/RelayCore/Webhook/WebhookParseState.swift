/// What the receiver could make of a verified body. Every state is stored: a signed event
/// is never dropped, but only `queued` ones get a reconcile job.
public enum WebhookParseState: String, Sendable, Codable, CaseIterable {
    /// JSON object with an Entrupy ID or a customer item ID: a reconcile job was enqueued.
    case queued
    /// Valid JSON object, but none of the known identifier paths held a value.
    case unrecognised
    /// Not JSON, or JSON that is not an object.
    case unparseable
    /// Reconciled by a worker (set later, never by the receiver).
    case processed
    /// The worker gave up on it (set later, never by the receiver).
    case failed
}
