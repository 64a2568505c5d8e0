import RelayQueue

/// `reconcile_webhook {webhook_event_id}`: the follow-up job the receiver enqueues with each
/// new event (and again when a redelivery arrives for an event that was not processed).
/// At most one unfinished per event.
public struct ReconcileWebhookJob: JobArgs, Equatable {
    public static let kind = "reconcile_webhook"
    public var webhookEventID: Int64

    enum CodingKeys: String, CodingKey {
        case webhookEventID = "webhook_event_id"
    }

    public init(webhookEventID: Int64) {
        self.webhookEventID = webhookEventID
    }

    func job(maxAttempts: Int) throws -> NewJob {
        try NewJob(self, uniqueKey: "webhook:\(webhookEventID)", maxAttempts: maxAttempts)
    }
}
