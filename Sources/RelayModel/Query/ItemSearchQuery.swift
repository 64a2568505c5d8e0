public import Foundation

/// A search over reconciled items with the filters of Entrupy's own search: values within
/// one filter OR, different filters AND. Shared by `GET /v1/items`, the console and
/// `items search`, so all three accept and refuse exactly the same things.
public struct ItemSearchQuery: Sendable, Equatable {
    public static let flags = ["none", "flagged", "resolved"]
    public static let defaultLimit = 20
    public static let maxLimit = 100
    public static let maxLastDays = 3650
    /// The parameter names, as the query string, the form and the CLI spell them.
    public static let parameterNames: Set<String> = [
        "result", "flag", "brand", "category", "username", "customer_item_id", "unique_user_id",
        "since", "until", "last_days", "limit", "cursor", "result_mode",
    ]

    public var results: [String] = []
    public var flags: [String] = []
    public var brands: [String] = []
    public var categories: [String] = []
    /// Usernames, each matching by prefix.
    public var usernames: [String] = []
    /// Customer item IDs, each matching by prefix (`sku-1` finds `sku-1` and `sku-12`).
    public var customerItemIDs: [String] = []
    /// SDK users' own IDs (as given to `POST /v1/sdk/authorize`), matched through their usernames.
    public var uniqueUserIDs: [String] = []
    /// Submission time (first sight when Entrupy gave none), inclusive.
    public var since: Date?
    /// Exclusive (a date given alone means the end of that day).
    public var until: Date?
    public var limit = ItemSearchQuery.defaultLimit
    public var cursor: PageCursor?
    public var countOnly = false

    public init() {}

    /// Reads a query string's pairs; `now` anchors `last_days`.
    public static func parse(_ pairs: [(String, String)], now: Date = Date()) throws(QueryParameterError) -> ItemSearchQuery {
        let parameters = try QueryParameters(pairs, allowed: parameterNames)
        var query = ItemSearchQuery()
        // As people type them: any case, display names (`Unidentified`, `Louis Vuitton`).
        query.results = try parameters.values("result").map(CatalogueID.result)
        query.flags = try parameters.values("flag").map { $0.lowercased() }
        for flag in query.flags where !flags.contains(flag) {
            throw QueryParameterError("flag", "must be one of \(flags.joined(separator: ", ")), not \"\(flag)\"")
        }
        query.brands = try parameters.values("brand").map(CatalogueID.from)
        query.categories = try parameters.values("category").map(CatalogueID.from)
        query.usernames = try parameters.values("username")
        query.customerItemIDs = try parameters.values("customer_item_id")
        query.uniqueUserIDs = try parameters.values("unique_user_id")
        query.since = try parameters.date("since")
        query.until = try parameters.date("until", endOfDay: true)
        if let days = try parameters.integer("last_days", in: 1...maxLastDays) {
            if query.since != nil || query.until != nil {
                throw QueryParameterError("last_days", "cannot be combined with since or until")
            }
            query.since = now.addingTimeInterval(-Double(days) * 86_400)
        }
        try QueryParameters.checkOrder(since: query.since, until: query.until)
        query.limit = try parameters.integer("limit", in: 1...maxLimit) ?? defaultLimit
        query.cursor = try parameters.cursor(timed: true)
        query.countOnly = try parameters.choice("result_mode", in: ["items", "count_only"]) == "count_only"
        return query
    }

    /// Only the filters of a query string, for the whole result (an export): the page's own
    /// parameters (`limit`, `cursor`, `result_mode`) are ignored rather than refused.
    public static func parseFilters(_ pairs: [(String, String)], now: Date = Date()) throws(QueryParameterError) -> ItemSearchQuery {
        try parse(pairs.filter { !["limit", "cursor", "result_mode"].contains($0.0) }, now: now)
    }

    /// The filters as query-string pairs (no limit, cursor or mode): for "next page" links.
    public var filterPairs: [(String, String)] {
        var pairs: [(String, String)] = []
        for (name, values) in [("result", results), ("flag", flags), ("brand", brands), ("category", categories),
                               ("username", usernames), ("customer_item_id", customerItemIDs),
                               ("unique_user_id", uniqueUserIDs)] {
            pairs += values.map { (name, $0) }
        }
        if let since { pairs.append(("since", ISODate.text(since))) }
        if let until { pairs.append(("until", ISODate.text(until))) }
        return pairs
    }
}
