public import RelayModel

/// One page of search results. `nextCursor` is nil on the last page.
public struct SearchPage: Sendable, Equatable {
    public var items: [EntrupyItem]
    public var itemCount: Int
    public var totalCount: Int?
    public var nextCursor: JSONValue?
    /// Entries of `items` that were not items (no Entrupy ID, not an object): left out, counted.
    public var skipped: Int

    public init(items: [EntrupyItem], itemCount: Int, totalCount: Int?, nextCursor: JSONValue?, skipped: Int = 0) {
        self.items = items
        self.skipped = skipped
        self.itemCount = itemCount
        self.totalCount = totalCount
        self.nextCursor = nextCursor
    }

    /// Reads `{items, item_count, total_count, next_cursor}`; an empty cursor means the end.
    public static func parse(_ json: JSONValue) throws -> SearchPage {
        guard json.objectValue != nil else { throw EntrupyAPIError.invalidResponse("search answer is not an object") }
        // One unreadable entry must not make the whole page (and every page after it) unreadable.
        let entries = json["items"]?.arrayValue ?? []
        let items = entries.compactMap { try? EntrupyItemParser.parse($0) }
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
            nextCursor: cursor,
            skipped: entries.count - items.count
        )
    }
}
