
/// One page of search results and how many match. The count is exact, except on a page that
/// filters by username, customer item ID or SDK user, where it stops at 10,000
/// (`totalCountExact` false); a count-only search is always exact.
public struct ItemSearchPage: Sendable, Equatable {
    public var items: [ItemSummary]
    public var totalCount: Int
    public var nextCursor: PageCursor?
    public var countOnly: Bool
    /// False when more than `PostgresItemStore.pageCountCap` match: `totalCount` is then that cap.
    public var totalCountExact: Bool

    public init(items: [ItemSummary], totalCount: Int, nextCursor: PageCursor?, countOnly: Bool = false, totalCountExact: Bool = true) {
        self.items = items
        self.totalCount = totalCount
        self.nextCursor = nextCursor
        self.countOnly = countOnly
        self.totalCountExact = totalCountExact
    }
}
