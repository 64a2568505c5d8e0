public import Foundation

/// The relay's reading of an Entrupy authentication (contract section 3). Built from the
/// REST v1 item or its SDK variant; anything it does not name stays in `raw`.
public struct EntrupyItem: Sendable, Equatable {
    public var entrupyID: String
    public var customerItemID: String?
    /// `status.result.id`; other values than the documented five pass through.
    public var result: String?
    public var resultFinal: Bool
    public var resultHeader: String?
    public var resultMessage: String?
    /// `none`, `flagged` or `resolved` (other values pass through); `none` when absent.
    public var flag: String
    public var brand: String?
    public var model: String?
    public var category: String?
    public var username: String?
    public var certificateURL: String?
    public var submittedAt: Date?
    public var raw: JSONValue

    public init(entrupyID: String, customerItemID: String? = nil, result: String? = nil, resultFinal: Bool = false,
                resultHeader: String? = nil, resultMessage: String? = nil, flag: String = "none", brand: String? = nil,
                model: String? = nil, category: String? = nil, username: String? = nil, certificateURL: String? = nil,
                submittedAt: Date? = nil, raw: JSONValue = .object([:])) {
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.result = result
        self.resultFinal = resultFinal
        self.resultHeader = resultHeader
        self.resultMessage = resultMessage
        self.flag = flag
        self.brand = brand
        self.model = model
        self.category = category
        self.username = username
        self.certificateURL = certificateURL
        self.submittedAt = submittedAt
        self.raw = raw
    }

    /// The comparable state the differ works on.
    public var snapshot: ItemSnapshot {
        ItemSnapshot(result: result, resultFinal: resultFinal, flag: flag)
    }
}
