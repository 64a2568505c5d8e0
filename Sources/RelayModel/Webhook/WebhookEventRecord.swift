public import Foundation

/// A stored webhook as `events list` and the query API show it (no body, no secrets).
public struct WebhookEventRecord: Sendable, Equatable {
    public var id: Int64
    public var eventType: String?
    public var eventID: String?
    public var entrupyID: String?
    public var customerItemID: String?
    public var state: WebhookEventState
    public var duplicates: Int
    public var verifiedBy: String
    public var clientAddress: String?
    /// The body's size; nil once it was removed (`bodyRemoved` says why).
    public var bodyBytes: Int?
    /// `expired` (a retention setting) or `erased` (an erasure); nil while the body is kept.
    public var bodyRemoved: String?
    public var receivedAt: Date

    public init(id: Int64, eventType: String?, eventID: String?, entrupyID: String?, customerItemID: String?, state: WebhookEventState,
                duplicates: Int, verifiedBy: String, clientAddress: String?, bodyBytes: Int?, bodyRemoved: String? = nil, receivedAt: Date) {
        self.id = id
        self.eventType = eventType
        self.eventID = eventID
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.state = state
        self.duplicates = duplicates
        self.verifiedBy = verifiedBy
        self.clientAddress = clientAddress
        self.bodyBytes = bodyBytes
        self.bodyRemoved = bodyRemoved
        self.receivedAt = receivedAt
    }
}
