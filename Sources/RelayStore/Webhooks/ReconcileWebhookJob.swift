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

    /// The key of its one argument, for the receiver's statement that builds the arguments in SQL.
    static let argumentName = CodingKeys.webhookEventID.stringValue
    /// Its unique key is this and the event's ID: one unfinished job per event.
    static let uniqueKeyPrefix = "webhook:"
}
