import Synchronization

/// Jobs a caller outside any worker's run inserts already claimed by the worker of its own
/// process, and hands over once their statement has committed: the receiver's reconcile jobs,
/// when `serve` runs the worker. The worker runs them as if it had claimed them, so a webhook
/// costs no NOTIFY and no claim. A statement leases at most the worker's free slots (counted
/// when its values are read; the rest go in available, for any worker, which the caller
/// wakes). Once the worker stops, nothing is leased, and jobs handed over late go back to the
/// queue. If the process dies first, their leases run out and any worker's rescue hands them
/// out again, as for any claimed job.
public final class JobHandoff: JobAdopter {
    private let baseLease: JobLease
    private let runnableKinds: Set<String>
    /// How many more jobs the worker may run now.
    private let freeSlots: @Sendable () -> Int
    private let wake: WakeSignal
    /// Back to the queue, without spending an attempt (the worker's `putBack`).
    private let putBack: @Sendable ([ClaimedJob]) -> Void
    private let state = Mutex<(inbox: [ClaimedJob], closed: Bool)>(([], false))

    init(lease: JobLease, runnableKinds: Set<String>, freeSlots: @escaping @Sendable () -> Int, wake: WakeSignal,
         putBack: @escaping @Sendable ([ClaimedJob]) -> Void) {
        baseLease = lease
        self.runnableKinds = runnableKinds
        self.freeSlots = freeSlots
        self.wake = wake
        self.putBack = putBack
    }

    public func lease(forRunning kind: String) -> JobLease? {
        guard runnableKinds.contains(kind) else { return nil }
        let (waiting, closed) = state.withLock { ($0.inbox.count, $0.closed) }
        guard !closed else { return nil }
        var lease = baseLease
        lease.limit = max(0, freeSlots() - waiting)
        return lease.limit > 0 ? lease : nil
    }

    public func adopt(_ jobs: [ClaimedJob]) {
        guard !jobs.isEmpty else { return }
        let closed = state.withLock { state -> Bool in
            if !state.closed { state.inbox += jobs }
            return state.closed
        }
        if closed { putBack(jobs) } else { wake.signal() }
    }

    /// The jobs handed over since the last call, for the worker to run.
    func take() -> [ClaimedJob] {
        state.withLock { state in
            defer { state.inbox = [] }
            return state.inbox
        }
    }

    /// Stops leasing (the worker is stopping); answers the jobs still waiting, for the worker to put back.
    func close() -> [ClaimedJob] {
        state.withLock { state in
            state.closed = true
            defer { state.inbox = [] }
            return state.inbox
        }
    }
}
