public import Foundation
public import RelayModel

/// One transition of the change feed (`GET /v1/changes`), with the cursor just after it.
public struct APIChange: Encodable, Sendable {
    let cursor: String
    let entrupyID: String
    @AlwaysPresent var customerItemID: String?
    let kind: String
    @AlwaysPresent var from: String?
    @AlwaysPresent var to: String?
    let occurredAt: Date
    let source: String

    enum CodingKeys: String, CodingKey {
        case cursor, entrupyID = "entrupy_id", customerItemID = "customer_item_id", kind, from, to, occurredAt = "occurred_at", source
    }

    public init(_ entry: ChangeEntry) {
        cursor = entry.cursor.description
        entrupyID = entry.entrupyID
        customerItemID = entry.customerItemID
        kind = entry.kind
        from = entry.from
        to = entry.to
        occurredAt = entry.occurredAt
        source = entry.source
    }
}

/// A page of the change feed: its changes and where to read on from (the last change's
/// cursor, or the cursor given when there was none).
public struct APIChanges: Encodable, Sendable {
    let changes: [APIChange]
    let nextCursor: String

    enum CodingKeys: String, CodingKey {
        case changes, nextCursor = "next_cursor"
    }

    public init(_ entries: [ChangeEntry], after cursor: ChangeCursor) {
        changes = entries.map(APIChange.init)
        nextCursor = (entries.last?.cursor ?? cursor).description
    }
}
