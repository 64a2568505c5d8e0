import Foundation
import RelayCore

/// An item with everything that happened to it: the webhooks received, each fetch
/// (reconciliation), the transitions, and the deliveries with every attempt. `webhooks` and
/// `deliveries` are nil when the reader may not see them (a `consumer` token).
public struct ItemDetail: Sendable, Encodable {
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

    enum CodingKeys: String, CodingKey {
        case model
        case certificateURL = "certificate_url"
        case firstSeenAt = "first_seen_at"
        case fetchedAt = "fetched_at"
        case transitions, reconciliations, webhooks, deliveries, timeline
    }

    public func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(model, forKey: .model)
        try c.encode(certificateURL, forKey: .certificateURL)
        try c.encode(firstSeenAt, forKey: .firstSeenAt)
        try c.encode(fetchedAt, forKey: .fetchedAt)
        try c.encode(transitions, forKey: .transitions)
        try c.encode(reconciliations, forKey: .reconciliations)
        try c.encodeIfPresent(webhooks, forKey: .webhooks)
        try c.encodeIfPresent(deliveries, forKey: .deliveries)
        try c.encode(timeline, forKey: .timeline)
    }
}
