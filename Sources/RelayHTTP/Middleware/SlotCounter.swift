import Synchronization

/// Slots in use per key, never more than `limit` for one key: `take` fails at once instead
/// of waiting, so a flood is refused (503, 429) rather than queued in memory.
final class SlotCounter<Key: Hashable & Sendable>: Sendable {
    let limit: Int
    private let used = Mutex<[Key: Int]>([:])

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func take(_ key: Key) -> Bool {
        take(key, limit: limit)
    }

    /// Takes a slot for `key` when fewer than `limit` (at most `self.limit`) are in use.
    func take(_ key: Key, limit keyLimit: Int) -> Bool {
        used.withLock { used in
            let current = used[key, default: 0]
            guard current < min(limit, max(1, keyLimit)) else { return false }
            used[key] = current + 1
            return true
        }
    }

    func give(_ key: Key) {
        used.withLock { used in
            let remaining = used[key, default: 1] - 1
            used[key] = remaining > 0 ? remaining : nil
        }
    }

    /// Slots in use for `key`.
    func count(_ key: Key) -> Int {
        used.withLock { $0[key, default: 0] }
    }
}
