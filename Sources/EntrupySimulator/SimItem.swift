/// An authentication as the simulator holds it. `SimItem+JSON` renders it as the public v1.4
/// item in the item's own variant, `SimItem+JSONv2` as the v2 item; the fields here are the
/// truth behind every rendering.
struct SimItem: Sendable {
    var entrupyID: String
    var customerItemID: String
    var orderID: String?
    var styleCode: String?
    var size: String?
    var upc: String?
    var serial: String?
    var brand: String
    var model: String?
    var category: String
    var formFactor: String
    var username: String
    var organisation: String

    var result: String
    var final: Bool
    /// `status.result.reason`, shown for an `invalid` result.
    var resultReason: String?
    var reasons: [ResultReason]
    /// v2's `status.initial_result`: the first result the item ever had (the one it was created
    /// with), kept through every later change; nil only for an item that never had one.
    var initialResult: String?
    var initialFinal: Bool?

    var flag: String
    var flagInfo: FlagInfo?
    var isFlaggable: Bool

    var photos: Int
    var variant: ItemVariant
    /// Set by the first certificate transfer event, kept by later ones.
    var transferID: String?

    /// Epoch seconds. `captureStartedAt` is `timestamp.epoch`: a little before submission.
    var captureStartedAt: Double
    var submittedAt: Double
    var initialResultSetAt: Double?
    var resultReturnedAt: Double?
    /// v2's `timestamp.last_updated_at`: creation, then every result or flag change.
    var lastUpdatedAt: Double
    /// Before this (epoch seconds) the API answers as if the item did not exist yet.
    var visibleAt: Double
    /// Raised by every change; the simulator's own ordering of changes.
    var sequence: Int
    /// Where the item's photos and certificate are served (`SimMediaRoutes`): the simulator's
    /// own address, so a local run's console shows real images.
    var media = SimItem.mediaBase
    /// What the last result asked to retake (`batch_request.retake_reasons`), and the customer's
    /// state (`customer_state`): set with a result, rendered when given.
    var retakeReasons: [String] = []
    var customerState: String?

    var hasCertificate: Bool { result == "authentic" && final }

    func isVisible(at now: Double) -> Bool { now >= visibleAt }

    /// A new result, as Entrupy returns one: the result times move, the explanations are the
    /// new result's (none unless given).
    mutating func setResult(_ id: String, final: Bool, reason: String?, reasons: [ResultReason], at now: Double) {
        result = id
        self.final = final
        resultReason = reason
        self.reasons = reasons
        if initialResultSetAt == nil { initialResultSetAt = now }
        if initialResult == nil {
            initialResult = id
            initialFinal = final
        }
        resultReturnedAt = now
        lastUpdatedAt = now
    }

    /// A flag change; a new state clears the old reason unless one is given.
    mutating func setFlag(_ id: String, info: FlagInfo?, isFlaggable: Bool?, at now: Double) {
        flag = id
        flagInfo = info
        if let isFlaggable { self.isFlaggable = isFlaggable }
        lastUpdatedAt = now
    }

    /// The value a search filter key reads.
    func value(forFilter key: String) -> String? {
        switch key {
        case "properties.brand.id": brand
        case "status.result.id": result
        case "status.flag": flag
        case "text_fields.customer_item_id", "text_fields.sku": customerItemID
        case "owner.user.username": username
        case "activity.product_category": category
        case "activity.form_factor": formFactor
        default: nil
        }
    }

    static let filterKeys: Set<String> = [
        "properties.brand.id", "status.result.id", "status.flag", "text_fields.customer_item_id", "text_fields.sku",
        "owner.user.username", "activity.product_category", "activity.form_factor",
    ]
}
