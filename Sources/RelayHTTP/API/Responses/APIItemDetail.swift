public import RelayModel
import Foundation

/// `GET /v1/items/{id}`: the item's fields, then its whole history. `webhooks` and
/// `deliveries` are left out for readers that may not see them.
public struct APIItemDetail: Encodable, Sendable {
    let item: APIItemSummary
    @AlwaysPresent var model: String?
    @AlwaysPresent var certificateURL: String?
    let firstSeenAt: Date
    let fetchedAt: Date
    let transitions: [APITransition]
    let reconciliations: [APIReconciliation]
    let webhooks: [APIWebhookEvent]?
    let deliveries: [APIDeliveryHistory]?
    let timeline: [APITimelineEvent]
    let details: APIItemDetails
    /// Null when unknown, or when the reader may not see people.
    @AlwaysPresent var submitter: APISubmitter?
    let resubmissions: [APIItemSummary]

    enum CodingKeys: String, CodingKey {
        case model, certificateURL = "certificate_url", firstSeenAt = "first_seen_at", fetchedAt = "fetched_at"
        case transitions, reconciliations, webhooks, deliveries, timeline, details, submitter, resubmissions
    }

    public init(_ detail: ItemDetail) {
        item = APIItemSummary(detail.item)
        model = detail.model
        certificateURL = detail.certificateURL
        firstSeenAt = detail.firstSeenAt
        fetchedAt = detail.fetchedAt
        transitions = detail.transitions.map(APITransition.init)
        reconciliations = detail.reconciliations.map(APIReconciliation.init)
        webhooks = detail.webhooks?.map(APIWebhookEvent.init)
        deliveries = detail.deliveries?.map(APIDeliveryHistory.init)
        timeline = detail.timeline.map(APITimelineEvent.init)
        details = APIItemDetails(detail.details)
        submitter = detail.submitter.map {
            APISubmitter(uniqueUserID: $0.uniqueUserID, email: $0.email, firstName: $0.firstName, lastName: $0.lastName)
        }
        resubmissions = detail.resubmissions.map(APIItemSummary.init)
    }

    public func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(_model, forKey: .model)
        try c.encode(_certificateURL, forKey: .certificateURL)
        try c.encode(firstSeenAt, forKey: .firstSeenAt)
        try c.encode(fetchedAt, forKey: .fetchedAt)
        try c.encode(transitions, forKey: .transitions)
        try c.encode(reconciliations, forKey: .reconciliations)
        try c.encodeIfPresent(webhooks, forKey: .webhooks)
        try c.encodeIfPresent(deliveries, forKey: .deliveries)
        try c.encode(timeline, forKey: .timeline)
        try c.encode(details, forKey: .details)
        try c.encode(_submitter, forKey: .submitter)
        try c.encode(resubmissions, forKey: .resubmissions)
    }
}
