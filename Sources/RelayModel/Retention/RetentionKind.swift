/// A kind of stored data with a retention setting of its own (`RetentionPolicy`). Payloads go
/// before the metadata that says what happened: a webhook's body before its row, a delivery's
/// payload before its attempts. Timeline rows have no setting: they are kept while their item
/// is (items are never pruned), because a delivery's idempotency key counts the earlier
/// transitions of its kind, and removing one would hand a later transition a key already sent.
public enum RetentionKind: String, Sendable, CaseIterable {
    /// A webhook's body and headers (the row stays, saying "body expired").
    case webhookBodies = "webhook_bodies"
    /// A webhook's row: type, IDs, state, when it came (its timeline line goes with it).
    case webhookEvents = "webhook_events"
    /// The record of each fetch (source, outcome, note).
    case reconciliations
    /// A finished delivery's rendered payload and its partner's replies, counted from when it
    /// was delivered or went dead (a delivery still pending or retrying is never touched).
    case deliveryPayloads = "delivery_payloads"
    /// A finished delivery's attempt rows (the delivery's own row, with its attempt count, stays).
    case deliveryAttempts = "delivery_attempts"
    /// The SDK users mirror (people's emails and names), counted from their last authorisation.
    case sdkUsers = "sdk_users"

    /// The order a pass prunes in: rows before their payloads where a row's retention removes
    /// its payload with it (a webhook row before webhook bodies: nulling the body of a row about
    /// to be deleted would write a year of rows twice).
    public static let pruneOrder: [RetentionKind] = [
        .webhookEvents, .webhookBodies, .reconciliations, .deliveryPayloads, .deliveryAttempts, .sdkUsers,
    ]

    /// What the setting removes, in a phrase for people.
    public var removes: String {
        switch self {
        case .webhookBodies: "webhook bodies and headers"
        case .webhookEvents: "webhook event rows"
        case .reconciliations: "reconciliation records"
        case .deliveryPayloads: "finished deliveries' payloads and replies"
        case .deliveryAttempts: "finished deliveries' attempt rows"
        case .sdkUsers: "SDK users mirror rows (emails, names)"
        }
    }
}
