import Foundation
import RelayCore

/// An item with its timeline and the webhooks received for it, as `items show` prints it.
public struct ItemDetail: Sendable, Encodable {
    public struct TimelineEntry: Sendable, Encodable, Equatable {
        public var kind: String
        public var at: Date
        public var from: String?
        public var to: String?
        public var source: String
        public var webhookEventID: Int64?

        enum CodingKeys: String, CodingKey {
            case kind, at, from, to, source
            case webhookEventID = "webhook_event_id"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(kind, forKey: .kind)
            try c.encode(at, forKey: .at)
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
            try c.encode(source, forKey: .source)
            try c.encode(webhookEventID, forKey: .webhookEventID)
        }
    }

    public var entrupyID: String
    public var customerItemID: String?
    public var result: String?
    public var resultFinal: Bool
    public var flag: String
    public var brand: String?
    public var model: String?
    public var category: String?
    public var username: String?
    public var certificateURL: String?
    public var submittedAt: Date?
    public var firstSeenAt: Date
    public var updatedAt: Date
    public var fetchedAt: Date
    public var timeline: [TimelineEntry]
    public var webhooks: [WebhookEventRecord]

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id"
        case customerItemID = "customer_item_id"
        case result
        case resultFinal = "result_final"
        case flag, brand, model, category, username
        case certificateURL = "certificate_url"
        case submittedAt = "submitted_at"
        case firstSeenAt = "first_seen_at"
        case updatedAt = "updated_at"
        case fetchedAt = "fetched_at"
        case timeline, webhooks
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entrupyID, forKey: .entrupyID)
        try c.encode(customerItemID, forKey: .customerItemID)
        try c.encode(result, forKey: .result)
        try c.encode(resultFinal, forKey: .resultFinal)
        try c.encode(flag, forKey: .flag)
        try c.encode(brand, forKey: .brand)
        try c.encode(model, forKey: .model)
        try c.encode(category, forKey: .category)
        try c.encode(username, forKey: .username)
        try c.encode(certificateURL, forKey: .certificateURL)
        try c.encode(submittedAt, forKey: .submittedAt)
        try c.encode(firstSeenAt, forKey: .firstSeenAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(fetchedAt, forKey: .fetchedAt)
        try c.encode(timeline, forKey: .timeline)
        try c.encode(webhooks, forKey: .webhooks)
    }
}
