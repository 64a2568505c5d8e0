import Foundation
@testable import RelayModel
@testable import RelayHTTP

/// Two transitions, in the feed's order.
struct MemoryChanges: ChangeFeedQueries {
    static let entries = [
        ChangeEntry(cursor: ChangeCursor(transaction: 0, id: 1), entrupyID: "E1", customerItemID: "C1", kind: "item.created",
                    from: nil, to: nil, occurredAt: Date(timeIntervalSince1970: 1_763_000_000), source: "webhook"),
        ChangeEntry(cursor: ChangeCursor(transaction: 740, id: 2), entrupyID: "E1", customerItemID: "C1", kind: "result.final",
                    from: "needs_review", to: "authentic", occurredAt: Date(timeIntervalSince1970: 1_763_000_060), source: "webhook"),
    ]

    func changes(after cursor: ChangeCursor, limit: Int) async throws -> [ChangeEntry] {
        Array(Self.entries.filter { $0.cursor > cursor }.prefix(limit))
    }
}
