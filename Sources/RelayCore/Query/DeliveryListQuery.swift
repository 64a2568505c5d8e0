/// `GET /v1/deliveries`: deliveries newest first, by state and item.
public struct DeliveryListQuery: Sendable, Equatable {
    public static let parameterNames: Set<String> = ["state", "item", "webhook_id", "limit", "cursor"]

    public var state: DeliveryState?
    /// An Entrupy ID.
    public var item: String?
    /// A delivery's idempotency key: the `webhook-id` header a partner quotes (an email's
    /// `Message-ID` before its `@`).
    public var webhookID: String?
    public var limit = 20
    public var cursor: PageCursor?

    public init() {}

    public static func parse(_ pairs: [(String, String)]) throws(QueryParameterError) -> DeliveryListQuery {
        let parameters = try QueryParameters(pairs, allowed: parameterNames)
        var query = DeliveryListQuery()
        query.state = try parameters.choice("state", as: DeliveryState.self)
        query.item = try parameters.single("item")
        query.webhookID = try parameters.single("webhook_id")
        query.limit = try parameters.integer("limit", in: 1...100) ?? 20
        query.cursor = try parameters.cursor(timed: false)
        return query
    }
}
