public import Foundation

/// One transition as the change feed gives it: the transition and which item, with the cursor
/// that points just after it.
public struct ChangeEntry: Sendable, Equatable {
    public var cursor: ChangeCursor
    public var entrupyID: String
    public var customerItemID: String?
    public var kind: String
    public var from: String?
    public var to: String?
    public var occurredAt: Date
    public var source: String

    public init(cursor: ChangeCursor, entrupyID: String, customerItemID: String?, kind: String, from: String?, to: String?,
                occurredAt: Date, source: String) {
        self.cursor = cursor
        self.entrupyID = entrupyID
        self.customerItemID = customerItemID
        self.kind = kind
        self.from = from
        self.to = to
        self.occurredAt = occurredAt
        self.source = source
    }
}
