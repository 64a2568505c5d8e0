public import Foundation

/// An item with everything that happened to it: the webhooks received, each fetch
/// (reconciliation), the transitions, and the deliveries with every attempt. `webhooks` and
/// `deliveries` are nil when the reader may not see them (a `consumer` token).
public struct ItemDetail: Sendable {
    public var item: ItemSummary
    public var model: String?
    public var certificateURL: String?
    public var firstSeenAt: Date
    public var fetchedAt: Date
    public var transitions: [TransitionEntry]
    public var reconciliations: [Reconciliation]
    public var webhooks: [WebhookEventRecord]?
    public var deliveries: [DeliveryHistory]?
    /// Everything else Entrupy said about it, read from the stored item.
    public var details: ItemDetails = ItemDetails()
    /// From the SDK users mirror, for readers that may see people (nil: unknown or hidden).
    public var submitter: Submitter?
    /// What support messages and certificate transfers about it said (every reader sees these).
    public var notes: [ItemNote] = []
    /// Other authentications with the same customer item ID, newest first.
    public var resubmissions: [ItemSummary] = []
    /// Flags support raised from the relay, oldest first (readers that may act on items see them).
    public var flagRequests: [FlagRequest] = []

    public init(item: ItemSummary, model: String? = nil, certificateURL: String? = nil, firstSeenAt: Date, fetchedAt: Date, transitions: [TransitionEntry], reconciliations: [Reconciliation], webhooks: [WebhookEventRecord]? = nil, deliveries: [DeliveryHistory]? = nil, details: ItemDetails = ItemDetails(), submitter: Submitter? = nil, notes: [ItemNote] = [], resubmissions: [ItemSummary] = []) {
        self.item = item
        self.model = model
        self.certificateURL = certificateURL
        self.firstSeenAt = firstSeenAt
        self.fetchedAt = fetchedAt
        self.transitions = transitions
        self.reconciliations = reconciliations
        self.webhooks = webhooks
        self.deliveries = deliveries
        self.details = details
        self.submitter = submitter
        self.notes = notes
        self.resubmissions = resubmissions
    }

    public var entrupyID: String { item.entrupyID }

    /// Everything above merged in time order (same-instant entries in causal order).
    public var timeline: [TimelineEvent] { TimelineEvent.merge(self) }

    /// Without what only support and admin may read.
    public func forItemReaders() -> ItemDetail {
        var copy = self
        copy.webhooks = nil
        copy.deliveries = nil
        copy.submitter = nil
        return copy
    }

    /// What `role` may read of it: webhooks and deliveries with `readDeliveries`, the
    /// submitter with `readPeople`.
    public func visible(to role: Role) -> ItemDetail {
        var copy = role.allows(.readDeliveries) ? self : forItemReaders()
        if !role.allows(.readPeople) { copy.submitter = nil }
        if !role.allows(.reconcileItems) { copy.flagRequests = [] }
        return copy
    }
}
