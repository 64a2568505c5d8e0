public import Foundation

/// An item as search results list it.
public struct ItemSummary: Sendable, Equatable {
    public var entrupyID: String
    public var customerItemID: String?
    public var result: String?
    public var resultFinal: Bool
    public var flag: String
    public var brand: String?
    public var category: String?
    public var username: String?
    public var submittedAt: Date?
    public var updatedAt: Date
    /// The sort time: submission, or first sight when Entrupy gave none.
    public var listedAt: Date

    public init(entrupyID: String, customerItemID: String?, result: String?, resultFinal: Bool, flag: String, brand: String?,
                category: String?, username: String?, submittedAt: Date?, updatedAt: Date, listedAt: Date) {
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.result = result
        self.resultFinal = resultFinal
        self.flag = flag
        self.brand = brand
        self.category = category
        self.username = username
        self.submittedAt = submittedAt
        self.updatedAt = updatedAt
        self.listedAt = listedAt
    }
}
