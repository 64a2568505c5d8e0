import RelayCore

/// One page of search results. `nextCursor` is nil on the last page.
public struct SearchPage: Sendable, Equatable {
    public var items: [EntrupyItem]
    public var itemCount: Int
    public var totalCount: Int?
    public var nextCursor: JSONValue?

    public init(items: [EntrupyItem], itemCount: Int, totalCount: Int?, nextCursor: JSONValue?) {
        self.items = items
        self.itemCount = itemCount
        self.totalCount = totalCount
        self.nextCursor = nextCursor
    }

    /// Reads `{items, item_count, total_count, next_cursor}`; an empty cursor means the end.
    public static func parse(_ json: JSONValue) throws -> SearchPage {
        guard json.objectValue != nil else { throw EntrupyAPIError.invalidResponse("search answer is not an object") }
        let items = try (json["items"]?.arrayValue ?? []).map(EntrupyItemParser.parse)
        var cursor = json["next_cursor"]
        switch cursor {
        case .null?, .string("")?: cursor = nil
        case .array(let parts)? where parts.isEmpty: cursor = nil
        default: break
        }
        return SearchPage(
            items: items,
            itemCount: json["item_count"]?.int64Value.map(Int.init) ?? items.count,
            totalCount: json["total_count"]?.int64Value.map(Int.init),
            nextCursor: cursor
        )
    }
}
