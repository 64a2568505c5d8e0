import RelayRuntime
import Synchronization

/// Caps the attempts in flight per target (a callback host, or the SMTP server), so one slow
/// or failing target cannot take every worker slot. Over the cap a job waits a moment for a
/// slot (a busy but healthy target frees one within milliseconds, and snoozing instead would
/// cost a database write and a claim per job); no more than `limit` jobs wait per target, and
/// none longer than `patience`: past either the job snoozes.
public final class TargetLimiter: Sendable {
    let limit: Int
    let patience: Duration
    private let state = Mutex(State())

    private struct State {
        var inFlight: [String: Int] = [:]
        var waiters: [String: [(id: Int, continuation: CheckedContinuation<Bool, Never>)]] = [:]
        var nextID = 0
    }

    public init(limit: Int, patience: Duration = .milliseconds(250)) {
        self.limit = max(1, limit)
        self.patience = patience
    }

    /// True when a slot was taken (at once, or within `patience`); call `release` with the
    /// same target afterwards. False: the job should snooze.
    public func acquire(_ target: String) async -> Bool {
        await withCheckedContinuation { continuation in
            // Taking a slot and joining the waiters happen under one lock, so a release in
            // between cannot miss this waiter.
            let waiting = state.withLock { state -> Int?? in
                let current = state.inFlight[target, default: 0]
                if current < limit {
                    state.inFlight[target] = current + 1
                    return .some(nil)
                }
                guard state.waiters[target, default: []].count < limit else { return nil }
                state.nextID += 1
                state.waiters[target, default: []].append((state.nextID, continuation))
                return .some(state.nextID)
            }
            switch waiting {
            case nil: continuation.resume(returning: false)
            case .some(nil): continuation.resume(returning: true)
            case .some(let id?):
                // A timer of the shared table, not a sleeping task: a waiter served by `release`
                // leaves it to fire into nothing, and a task's sleep would have held its memory
                // until then all the same.
                _ = CoarseTimers.shared.arm(after: patience) { self.giveUp(id, target: target) }
            }
        }
    }

    /// Frees a slot: handed straight to the longest waiter for the target, if any.
    public func release(_ target: String) {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            if var queue = state.waiters[target], !queue.isEmpty {
                let first = queue.removeFirst()
                state.waiters[target] = queue.isEmpty ? nil : queue
                return first.continuation
            }
            let remaining = state.inFlight[target, default: 1] - 1
            state.inFlight[target] = remaining > 0 ? remaining : nil
            return nil
        }
        next?.resume(returning: true)
    }

    private func giveUp(_ id: Int, target: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard var queue = state.waiters[target], let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = queue.remove(at: index)
            state.waiters[target] = queue.isEmpty ? nil : queue
            return waiter.continuation
        }
        waiter?.resume(returning: false)
    }
}
