import Foundation
@testable import RelayCore
@testable import RelayHTTP
@testable import RelayStore
import Synchronization

/// Items in memory: one item `E1` (customer item `C1`) with a webhook and a delivery.
final class MemoryItems: ItemQueries {
    let refetches = Mutex<[String]>([])

    static let summary = ItemSummary(
        entrupyID: "E1", customerItemID: "C1", result: "authentic", resultFinal: true, flag: "none", brand: "louis_vuitton",
        category: "bag", username: "ann", submittedAt: nil, updatedAt: Date(timeIntervalSince1970: 1_763_000_000),
        listedAt: Date(timeIntervalSince1970: 1_763_000_000))

    func search(_ query: ItemSearchQuery) async throws -> ItemSearchPage {
        ItemSearchPage(items: [Self.summary], totalCount: 1, nextCursor: nil)
    }

    func detail(_ id: String) async throws -> ItemDetail? {
        guard id == "E1" || id == "C1" else { return nil }
        let at = Date(timeIntervalSince1970: 1_763_000_000)
        return ItemDetail(
            item: Self.summary, model: nil, certificateURL: nil, firstSeenAt: at, fetchedAt: at,
            transitions: [TransitionEntry(kind: "result.final", at: at, from: nil, to: "authentic", source: "webhook", webhookEventID: 1)],
            reconciliations: [], webhooks: [MemoryEvents.event],
            deliveries: [DeliveryHistory(delivery: MemoryDeliveries.record, attempts: [])])
    }

    func queueRefetch(entrupyID: String, source: ReconcileSource) async throws -> Int64? {
        refetches.withLock { $0.append(entrupyID) }
        return 7
    }
}
