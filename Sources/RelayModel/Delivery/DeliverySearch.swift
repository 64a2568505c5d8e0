public import Foundation

/// What support searches deliveries by (`GET /v1/deliveries`, `deliveries list`, the console):
/// every filter optional, all given ones AND. Each is backed by an index, so a page costs
/// the same at a million deliveries as at a thousand (docs/benchmarks.md).
public struct DeliverySearch: Sendable, Equatable {
    public var state: DeliveryState?
    /// An Entrupy ID.
    public var item: String?
    /// A delivery's idempotency key: the `webhook-id` header a partner quotes (an email's
    /// `Message-ID` before its `@`).
    public var webhookID: String?
    public var rule: String?
    /// As deliveries show it: `https://hooks.example.com/***`, or an email's recipients.
    public var target: String?
    public var channel: DeliveryChannel?
    /// Created at or after.
    public var since: Date?
    /// Created before.
    public var until: Date?

    public init(state: DeliveryState? = nil, item: String? = nil, webhookID: String? = nil, rule: String? = nil, target: String? = nil,
                channel: DeliveryChannel? = nil, since: Date? = nil, until: Date? = nil) {
        self.state = state
        self.item = item
        self.webhookID = webhookID
        self.rule = rule
        self.target = target
        self.channel = channel
        self.since = since
        self.until = until
    }
}
