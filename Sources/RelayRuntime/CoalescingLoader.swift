import Synchronization

/// Loads values by key in batches: every `load` that arrives while a batch is being fetched
/// joins the next one, so N concurrent loads cost about two fetches instead of N (the
/// DataLoader pattern). Under light load a batch is a single key and adds no delay.
public final class CoalescingLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public typealias Fetch = @Sendable ([Key]) async throws -> [Key: Value]

    private struct State {
        var queued: [Key: [CheckedContinuation<Value?, any Error>]] = [:]
        var fetching = false
    }

    private let fetch: Fetch
    private let maxBatch: Int
    private let state = Mutex(State())

    public init(maxBatch: Int = 500, fetch: @escaping Fetch) {
        self.fetch = fetch
        self.maxBatch = max(1, maxBatch)
    }

    /// The value for `key`, or nil when the fetch did not return one. A failed fetch fails
    /// every load of its batch.
    public func load(_ key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { continuation in
            let startFetching = state.withLock { state -> Bool in
                state.queued[key, default: []].append(continuation)
                guard !state.fetching else { return false }
                state.fetching = true
                return true
            }
            if startFetching { Task { await self.drain() } }
        }
    }

    /// Fetches what is queued, batch after batch, until nothing is.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [Key: [CheckedContinuation<Value?, any Error>]]? in
                guard !state.queued.isEmpty else {
                    state.fetching = false
                    return nil
                }
                var taken: [Key: [CheckedContinuation<Value?, any Error>]] = [:]
                for key in state.queued.keys.prefix(maxBatch) { taken[key] = state.queued.removeValue(forKey: key) }
                return taken
            }
            guard let batch else { return }
            do {
                let values = try await fetch(Array(batch.keys))
                for (key, waiters) in batch { for waiter in waiters { waiter.resume(returning: values[key]) } }
            } catch {
                for waiters in batch.values { for waiter in waiters { waiter.resume(throwing: error) } }
            }
        }
    }
}
