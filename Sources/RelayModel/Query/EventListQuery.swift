public import Foundation

/// `GET /v1/events`: received webhooks, newest first.
public struct EventListQuery: Sendable, Equatable {
    public static let parameterNames: Set<String> = [
        "state", "event_type", "entrupy_id", "customer_item_id", "since", "until", "limit", "cursor",
    ]

    public var states: [WebhookEventState] = []
    public var eventTypes: [String] = []
    public var entrupyIDs: [String] = []
    public var customerItemIDs: [String] = []
    /// Reception time, inclusive.
    public var since: Date?
    /// Exclusive.
    public var until: Date?
    public var limit = 20
    /// Continue after this event ID.
    public var before: Int64?

    public init(limit: Int = 20) {
        self.limit = limit
    }

    public static func parse(_ pairs: [(String, String)]) throws(QueryParameterError) -> EventListQuery {
        let parameters = try QueryParameters(pairs, allowed: parameterNames)
        var query = EventListQuery()
        query.states = try parameters.values("state", as: WebhookEventState.self)
        query.eventTypes = try parameters.values("event_type")
        query.entrupyIDs = try parameters.values("entrupy_id")
        query.customerItemIDs = try parameters.values("customer_item_id")
        query.since = try parameters.date("since")
        query.until = try parameters.date("until", endOfDay: true)
        try QueryParameters.checkOrder(since: query.since, until: query.until)
        query.limit = try parameters.integer("limit", in: 1...100) ?? 20
        query.before = try parameters.cursor(timed: false)?.id
        return query
    }
}
