import Synchronization

/// Wakes one waiting loop: NOTIFY arrived, a job finished, or shutdown began. A signal sent
/// while nobody waits is remembered, so a wake-up is never lost between two waits. A wait
/// always ends by its timeout, and at once when its task is cancelled.
final class WakeSignal: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var pending = false
        var waiter: Waiter?
        /// Waits ended (timeout or cancellation) before their waiter had registered.
        var released: Set<UInt64> = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    func signal() {
        let waiter = state.withLock { state -> Waiter? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.continuation.resume()
    }

    /// Returns on a signal, after `timeout`, or when the calling task is cancelled.
    func wait(timeout: Duration) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForSignal(id) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.release(id)
            }
            await group.next()
            group.cancelAll()
            release(id)
        }
        state.withLock { _ = $0.released.remove(id) }
    }

    private func release(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.waiter, waiter.id == id {
                state.waiter = nil
                return waiter
            }
            state.released.insert(id)
            return nil
        }
        waiter?.continuation.resume()
    }

    private func waitForSignal(_ id: UInt64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.pending {
                    state.pending = false
                    return true
                }
                if state.released.contains(id) { return true }
                state.waiter = Waiter(id: id, continuation: continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
