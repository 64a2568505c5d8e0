/// `reconcile_webhook {webhook_event_id}`: the follow-up job the receiver enqueues with each
/// new event (and again when a redelivery arrives for an event that was not processed).
/// At most one unfinished per event.
public struct ReconcileWebhookJob: RowJobArgs, Equatable {
    public static let kind = "reconcile_webhook"
    public var webhookEventID: Int64

    enum CodingKeys: String, CodingKey {
        case webhookEventID = "webhook_event_id"
    }

    public init(webhookEventID: Int64) {
        self.webhookEventID = webhookEventID
    }

    /// The key of its one argument: the queue builds the arguments in SQL (`RowJobArgs`).
    public static let idArgument = CodingKeys.webhookEventID.stringValue
    /// Its unique key is this and the event's ID: one unfinished job per event.
    public static let uniqueKeyPrefix = "webhook:"
}
