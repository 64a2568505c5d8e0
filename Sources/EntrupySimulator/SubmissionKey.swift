/// An item's place in search order: submission time, then Entrupy ID.
struct SubmissionKey: Sendable, Comparable {
    var submittedAt: Double
    var entrupyID: String

    static func < (a: SubmissionKey, b: SubmissionKey) -> Bool {
        (a.submittedAt, a.entrupyID) < (b.submittedAt, b.entrupyID)
    }
}
