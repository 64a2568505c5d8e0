import Foundation
import RelayCore

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

    public var entrupyID: String { item.entrupyID }

    /// Everything above merged in time order (same-instant entries in causal order).
    public var timeline: [TimelineEvent] { TimelineEvent.merge(self) }

    /// Without what only support and admin may read.
    public func forItemReaders() -> ItemDetail {
        var copy = self
        copy.webhooks = nil
        copy.deliveries = nil
        return copy
    }
}
