import Foundation

/// An item as search results list it.
public struct ItemSummary: Sendable, Encodable, Equatable {
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

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id"
        case customerItemID = "customer_item_id"
        case result
        case resultFinal = "result_final"
        case flag, brand, category, username
        case submittedAt = "submitted_at"
        case updatedAt = "updated_at"
        case listedAt = "listed_at"
    }

    /// Absent values are written as `null`: every key is always present.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(entrupyID, forKey: .entrupyID)
        try c.encode(customerItemID, forKey: .customerItemID)
        try c.encode(result, forKey: .result)
        try c.encode(resultFinal, forKey: .resultFinal)
        try c.encode(flag, forKey: .flag)
        try c.encode(brand, forKey: .brand)
        try c.encode(category, forKey: .category)
        try c.encode(username, forKey: .username)
        try c.encode(submittedAt, forKey: .submittedAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(listedAt, forKey: .listedAt)
    }
}
