import Foundation

/// A stored webhook as the reconciler needs it.
public struct PendingWebhook: Sendable, Equatable {
    public var id: Int64
    public var entrupyID: String?
    public var customerItemID: String?
    public var state: String
    public var receivedAt: Date

    public init(id: Int64, entrupyID: String?, customerItemID: String?, state: String, receivedAt: Date) {
        self.id = id
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.state = state
        self.receivedAt = receivedAt
    }
}
