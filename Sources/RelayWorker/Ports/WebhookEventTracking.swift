public import RelayModel

/// Where the `reconcile_webhook` handler reads the stored event it runs for and notes why its
/// reconcile is failing (`PostgresWebhookEventStore`, wired in RelayApp).
public protocol WebhookEventTracking: Sendable {
    /// The event with the basis of its reconcile; nil when it no longer exists.
    func pending(id: Int64) async throws -> PendingWebhook?
    /// Records why an event's reconcile is failing; `final` marks it `failed` (a redelivery
    /// of the same event queues it again).
    func noteError(id: Int64, error: String, final: Bool) async throws
}
