public import Foundation
public import RelayModel

/// Where the `reconcile_webhook` handler reads the stored event it runs for and notes why its
/// reconcile is failing (`PostgresWebhookEventStore`, wired in RelayApp).
public protocol WebhookEventTracking: Sendable {
    /// The event with the basis of its reconcile; nil when it no longer exists.
    func pending(id: Int64) async throws -> PendingWebhook?
    /// `pending(id:)` that also takes the fetch lease of the item the event names, for `holder`
    /// and `duration`, in the same round trip, when the event is still to reconcile and nobody
    /// holds the lease: `leasedKey` is the lease's key when it was taken (the event's
    /// `FetchLease` key), else nil.
    func pending(id: Int64, leasingFor holder: UUID, duration: Duration) async throws -> (event: PendingWebhook, leasedKey: String?)?
    /// Records why an event's reconcile is failing; `final` marks it `failed` (a redelivery
    /// of the same event queues it again).
    func noteError(id: Int64, error: String, final: Bool) async throws
}
