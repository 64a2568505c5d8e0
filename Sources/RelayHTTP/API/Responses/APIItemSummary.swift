public import RelayModel
import Foundation

/// An item as search results list it (every key present, `null` when unknown).
public struct APIItemSummary: Encodable, Sendable {
    let entrupyID: String
    @AlwaysPresent var customerItemID: String?
    @AlwaysPresent var result: String?
    let resultFinal: Bool
    let flag: String
    @AlwaysPresent var brand: String?
    @AlwaysPresent var category: String?
    @AlwaysPresent var username: String?
    @AlwaysPresent var submittedAt: Date?
    let updatedAt: Date
    let listedAt: Date

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id", customerItemID = "customer_item_id", result, resultFinal = "result_final", flag
        case brand, category, username, submittedAt = "submitted_at", updatedAt = "updated_at", listedAt = "listed_at"
    }

    public init(_ item: ItemSummary) {
        entrupyID = item.entrupyID
        customerItemID = item.customerItemID
        result = item.result
        resultFinal = item.resultFinal
        flag = item.flag
        brand = item.brand
        category = item.category
        username = item.username
        submittedAt = item.submittedAt
        updatedAt = item.updatedAt
        listedAt = item.listedAt
    }

    /// A page of search results (`count_only`: the total alone).
    public static func page(_ page: ItemSearchPage) -> APIPage<APIItemSummary> {
        APIPage("items", rows: page.items.map(APIItemSummary.init), nextCursor: page.nextCursor,
                counts: .init(total: page.totalCount, exact: page.totalCountExact, only: page.countOnly))
    }
}
