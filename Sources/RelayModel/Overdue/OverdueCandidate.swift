/// An item the overdue pass found past its threshold with no final result stored: it is fetched
/// again, and found overdue only if the answer is still not final.
public struct OverdueCandidate: Sendable, Equatable {
    public var entrupyID: String
    /// The threshold's key (`24h`): one `result.overdue` per item per threshold.
    public var threshold: String

    public init(entrupyID: String, threshold: String) {
        self.entrupyID = entrupyID
        self.threshold = threshold
    }
}
