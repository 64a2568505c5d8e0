import RelayCore

/// One page of search results, encoded as the API and `items search --json` answer:
/// `items`, `item_count`, `total_count`, `next_cursor` (null on the last page); only
/// `total_count` for `result_mode=count_only`. `total_count` is exact, except on a page that
/// filters by username, customer item ID or SDK user, where it stops at 10,000
/// (`total_count_exact` false); `count_only` is always exact.
public struct ItemSearchPage: Sendable, Equatable, Encodable {
    public var items: [ItemSummary]
    public var totalCount: Int
    public var nextCursor: PageCursor?
    public var countOnly: Bool
    /// False when more than `PostgresItemRepository.pageCountCap` match: `totalCount` is then that cap.
    public var totalCountExact: Bool

    public init(items: [ItemSummary], totalCount: Int, nextCursor: PageCursor?, countOnly: Bool = false, totalCountExact: Bool = true) {
        self.items = items
        self.totalCount = totalCount
        self.nextCursor = nextCursor
        self.countOnly = countOnly
        self.totalCountExact = totalCountExact
    }

    enum CodingKeys: String, CodingKey {
        case items
        case itemCount = "item_count"
        case totalCount = "total_count"
        case nextCursor = "next_cursor"
        case totalCountExact = "total_count_exact"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(totalCount, forKey: .totalCount)
        if countOnly { return }
        try c.encode(items, forKey: .items)
        try c.encode(items.count, forKey: .itemCount)
        try c.encode(nextCursor?.text, forKey: .nextCursor)
        try c.encode(totalCountExact, forKey: .totalCountExact)
    }
}
