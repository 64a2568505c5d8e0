public import RelayModel

/// `POST /v1/items/{id}/refresh`: what was done to have the item fetched now.
public struct APIRefreshAccepted: Encodable, Sendable {
    let entrupyID: String
    /// `queued`, `moved_up`, `running` or `fetching`.
    let action: String
    @AlwaysPresent var jobID: Int64?
    let message: String

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id", action, jobID = "job_id", message
    }

    public init(entrupyID: String, outcome: RefreshOutcome) {
        self.entrupyID = entrupyID
        action = outcome.action
        jobID = outcome.jobID
        message = outcome.message
    }
}
