/// `GET /v1/deliveries`: deliveries newest first, by any of the search's filters.
public struct DeliveryListQuery: Sendable, Equatable {
    public static let parameterNames: Set<String> = [
        "state", "item", "webhook_id", "rule", "target", "channel", "since", "until", "limit", "cursor",
    ]

    public var search = DeliverySearch()
    public var limit = 20
    public var cursor: PageCursor?

    public init() {}

    public static func parse(_ pairs: [(String, String)]) throws(QueryParameterError) -> DeliveryListQuery {
        let parameters = try QueryParameters(pairs, allowed: parameterNames)
        var query = DeliveryListQuery()
        query.search.state = try parameters.choice("state", as: DeliveryState.self)
        query.search.item = try text(parameters, "item")
        query.search.webhookID = try text(parameters, "webhook_id")
        query.search.rule = try text(parameters, "rule")
        query.search.target = try text(parameters, "target")
        query.search.channel = try parameters.choice("channel", as: DeliveryChannel.self)
        query.search.since = try parameters.date("since")
        query.search.until = try parameters.date("until", endOfDay: true)
        try QueryParameters.checkOrder(since: query.search.since, until: query.search.until)
        query.limit = try parameters.integer("limit", in: 1...100) ?? 20
        query.cursor = try parameters.cursor(timed: true)
        return query
    }

    /// A text filter: not empty, at most 256 characters (control characters are refused for every parameter).
    static func text(_ parameters: QueryParameters, _ name: String) throws(QueryParameterError) -> String? {
        guard let value = try parameters.single(name) else { return nil }
        guard !value.isEmpty, value.unicodeScalars.count <= 256 else {
            throw QueryParameterError(name, "must be a non-empty string of at most 256 characters")
        }
        return value
    }
}
