public import Foundation

/// A stored webhook as the reconciler needs it.
public struct PendingWebhook: Sendable, Equatable {
    public var id: Int64
    public var entrupyID: String?
    public var customerItemID: String?
    public var state: WebhookEventState
    public var receivedAt: Date
    /// How long ago it was received, by the database's clock.
    public var age: Duration
    /// What its reconcile starts from, read with it (nil: read it apart).
    public var basis: ReconcileBasis?

    public init(id: Int64, entrupyID: String?, customerItemID: String?, state: WebhookEventState, receivedAt: Date, age: Duration = .zero,
                basis: ReconcileBasis? = nil) {
        self.id = id
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.state = state
        self.receivedAt = receivedAt
        self.age = age
        self.basis = basis
    }
}
