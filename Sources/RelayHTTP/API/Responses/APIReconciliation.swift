public import RelayModel
import Foundation

/// One fetch of an item: why, and what it changed.
public struct APIReconciliation: Encodable, Sendable {
    let at: Date
    let source: String
    let outcome: String
    let transitions: Int
    @AlwaysPresent var webhookEventID: Int64?

    enum CodingKeys: String, CodingKey {
        case at, source, outcome, transitions, webhookEventID = "webhook_event_id"
    }

    public init(_ fetch: Reconciliation) {
        at = fetch.at
        source = fetch.source
        outcome = fetch.outcome
        transitions = fetch.transitions
        webhookEventID = fetch.webhookEventID
    }
}
