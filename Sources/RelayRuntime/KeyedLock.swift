import Synchronization

/// Runs work for one key at a time, in arrival order, while work for other keys runs freely.
/// The reconcile handlers take an item's key, so hints for one item that a worker claimed
/// together are fetched one after another, and each later one first sees whether an earlier
/// fetch already covered it.
public final class KeyedLock: Sendable {
    /// Present keys are held; their arrays are the tasks waiting, oldest first.
    private let state = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    public init() {}

    public func withLock<T: Sendable>(_ key: String, _ body: () async throws -> T) async throws -> T {
        try await withLock(key, reportingWait: { _ in try await body() })
    }

    /// As `withLock`, telling `body` whether it had to wait for another holder of the key
    /// (what it read before may then be out of date).
    public func withLock<T: Sendable>(_ key: String, reportingWait body: (_ waited: Bool) async throws -> T) async throws -> T {
        let waited = await acquire(key)
        defer { release(key) }
        return try await body(waited)
    }

    /// How many keys are held now (for tests).
    public var heldKeys: Int { state.withLock { $0.count } }

    /// Returns whether the key was held by another task when asked for.
    private func acquire(_ key: String) async -> Bool {
        var waited = true
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let free = state.withLock { waiting -> Bool in
                guard waiting[key] != nil else {
                    waiting[key] = []
                    return true
                }
                waiting[key, default: []].append(continuation)
                return false
            }
            if free {
                waited = false
                continuation.resume()
            }
        }
        return waited
    }

    private func release(_ key: String) {
        let next = state.withLock { waiting -> CheckedContinuation<Void, Never>? in
            guard var queue = waiting[key], !queue.isEmpty else {
                waiting[key] = nil
                return nil
            }
            let first = queue.removeFirst()
            waiting[key] = queue
            return first
        }
        next?.resume()
    }
}
