/// `check_overdue {entrupy_id, threshold}`: fetch an item the overdue pass found past its
/// threshold and record `result.overdue` if it is still not final. At most one unfinished per
/// item and threshold.
public struct CheckOverdueJob: JobArgs, Equatable {
    public static let kind = "check_overdue"
    public var entrupyID: String
    public var threshold: String

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id"
        case threshold
    }

    public init(_ candidate: OverdueCandidate) {
        entrupyID = candidate.entrupyID
        threshold = candidate.threshold
    }

    public var uniqueKey: String { "overdue:" + threshold + ":" + entrupyID }
    public static let maxAttempts = 10
}
