public import RelayModel

/// `POST /v1/search/authentications`: filters AND together, values within one filter OR.
public struct SearchQuery: Sendable, Equatable {
    public struct Filter: Sendable, Equatable {
        public var key: String
        public var values: [String]
        public init(key: String, values: [String]) {
            self.key = key
            self.values = values
        }
    }

    public var filters: [Filter]
    /// At most 25 (the API's limit).
    public var limit: Int
    /// The previous page's `next_cursor`, passed back as it came.
    public var cursor: JSONValue?
    public var startEpoch: Int64?
    public var endEpoch: Int64?

    public init(filters: [Filter] = [], limit: Int = 25, cursor: JSONValue? = nil, startEpoch: Int64? = nil, endEpoch: Int64? = nil) {
        self.filters = filters
        self.limit = limit
        self.cursor = cursor
        self.startEpoch = startEpoch
        self.endEpoch = endEpoch
    }

    /// The filter key of an item's product category (its `activity.product_category`): our
    /// reading, as the REST reference names no such key; the SDK's search says "the category
    /// filter is required for search results to be returned".
    public static let categoryKey = "activity.product_category"
    /// The categories Entrupy's SDK names.
    public static let knownCategories = ["sneakers", "luxury", "apparel"]

    /// A filter on every known category and `extra` ones, which every walk over the whole
    /// window (sync, backfill) carries.
    public static func categoryFilter(extra: [String]) -> Filter {
        var values = knownCategories
        for category in extra where !values.contains(category) { values.append(category) }
        return Filter(key: categoryKey, values: values)
    }

    public var body: JSONValue {
        var object: [String: JSONValue] = [
            "filters": .array(filters.map { filter in
                filter.values.count == 1
                    ? .object(["key": .string(filter.key), "value": .string(filter.values[0])])
                    : .object(["key": .string(filter.key), "values": .array(filter.values.map(JSONValue.string))])
            }),
            "limit": .number(JSONNumber(min(max(limit, 1), 25))),
        ]
        if let cursor { object["cursor"] = cursor }
        if let startEpoch { object["start_date"] = .number(JSONNumber(startEpoch)) }
        if let endEpoch { object["end_date"] = .number(JSONNumber(endEpoch)) }
        return .object(object)
    }
}
