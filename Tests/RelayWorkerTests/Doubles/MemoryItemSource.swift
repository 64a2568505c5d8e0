import RelayModel
import RelayRuntime
import RelayWorker
import Synchronization

/// Entrupy as a dictionary: the item under its Entrupy ID (and its customer item ID), or an
/// error when it has none. Counts the calls.
final class MemoryItemSource: ItemSource {
    struct NotFound: Error {}
    private let items = Mutex<[String: EntrupyItem]>([:])
    let calls = Mutex(0)

    init(_ items: [EntrupyItem] = []) {
        for item in items { set(item) }
    }

    func set(_ item: EntrupyItem) {
        items.withLock { $0[item.entrupyID] = item }
    }

    func item(entrupyID: String, priority: APIPriority) async throws -> EntrupyItem {
        calls.withLock { $0 += 1 }
        guard let item = items.withLock({ $0[entrupyID] }) else { throw NotFound() }
        return item
    }

    func lookup(customerItemID: String, priority: APIPriority) async throws -> EntrupyItem {
        calls.withLock { $0 += 1 }
        guard let item = items.withLock({ $0.values.first { $0.customerItemID == customerItemID } }) else { throw NotFound() }
        return item
    }
}
