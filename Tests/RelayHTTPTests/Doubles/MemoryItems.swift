import Foundation
@testable import RelayModel
@testable import RelayHTTP
import Synchronization

/// Items in memory: one item `E1` (customer item `C1`) with a webhook and a delivery.
final class MemoryItems: ItemQueries {
    let refetches = Mutex<[String]>([])
    /// When set, each search waits on it (a test holds requests under way).
    let gate: SearchGate?

    init(gate: SearchGate? = nil) {
        self.gate = gate
    }

    static let summary = ItemSummary(
        entrupyID: "E1", customerItemID: "C1", result: "authentic", resultFinal: true, flag: "none", brand: "louis_vuitton",
        category: "bag", username: "ann", submittedAt: nil, updatedAt: Date(timeIntervalSince1970: 1_763_000_000),
        listedAt: Date(timeIntervalSince1970: 1_763_000_000))

    func search(_ query: ItemSearchQuery) async throws -> ItemSearchPage {
        await gate?.pass()
        return ItemSearchPage(items: [Self.summary], totalCount: 1, nextCursor: nil)
    }

    func exportChunk(_ query: ItemSearchQuery, after cursor: PageCursor?, limit: Int) async throws -> ([ItemSummary], PageCursor?) {
        cursor == nil ? ([Self.summary], nil) : ([], nil)
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

/// Holds searches until opened, counting how many are waiting.
final class SearchGate: Sendable {
    private struct State {
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    var waitingCount: Int { state.withLock { $0.waiting.count } }

    func pass() async {
        await withCheckedContinuation { continuation in
            let go = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiting.append(continuation)
                return false
            }
            if go { continuation.resume() }
        }
    }

    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
