import RelayRuntime
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

    /// Returns on a signal, after `timeout`, or when the calling task is cancelled. The timeout
    /// is a timer of `CoarseTimers.shared` (it may end up to a tenth of a second late): a task
    /// group with a sleeping child per wait was three tasks for every pass of a worker's loop.
    func wait(timeout: Duration) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let timer = CoarseTimers.shared.arm(after: timeout) { self.release(id) }
        await withTaskCancellationHandler {
            await waitForSignal(id)
        } onCancel: {
            release(id)
        }
        CoarseTimers.shared.disarm(timer)
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
