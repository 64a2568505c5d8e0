/// `reconcile_item {entrupy_id | customer_item_id, source}`: a re-fetch asked for by the
/// sweep or by support. At most one unfinished per item.
public struct ReconcileItemJob: JobArgs, Equatable {
    public static let kind = "reconcile_item"
    public var entrupyID: String?
    public var customerItemID: String?
    /// `sweep` or `manual`.
    public var source: String

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id"
        case customerItemID = "customer_item_id"
        case source
    }

    public init(entrupyID: String, source: ReconcileSource) {
        self.entrupyID = entrupyID
        self.source = source.label
    }

    public var reconcileSource: ReconcileSource { source == ReconcileSource.manual.label ? .manual : .sweep }

    /// One unfinished re-fetch per item.
    public var uniqueKey: String { "reconcile:" + (entrupyID ?? customerItemID ?? "") }
    public static let maxAttempts = 10
}
