/// `POST /v1/items/{id}/reconcile`: the fetch was queued (or one already was).
public struct APIReconcileAccepted: Encodable, Sendable {
    let entrupyID: String
    @AlwaysPresent var jobID: Int64?
    let message: String

    enum CodingKeys: String, CodingKey {
        case entrupyID = "entrupy_id", jobID = "job_id", message
    }

    public init(entrupyID: String, jobID: Int64?) {
        self.entrupyID = entrupyID
        self.jobID = jobID
        message = jobID == nil ? "a fetch of this item is already queued" : "the item will be fetched again now"
    }
}
