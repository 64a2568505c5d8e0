import Synchronization

/// The jobs a run enqueues for its own worker to run next: the follow-up lease. The worker
/// makes one for each run and hands it to the handler in its context
/// (`JobContext.followUps`); a handler that commits jobs passes it on, explicitly, to the
/// statement that inserts them (`JobInsert.values(leasingTo:)`), which inserts them already
/// claimed by that worker (see `JobLease`) and hands them back here (`JobInsert.adopt`).
/// When the handler returns, the worker runs them as if it had just claimed them: no NOTIFY,
/// no claim, no wait for one. Outside a worker's run (the receiver, a command) there is none
/// (`nil`), and the jobs are inserted available, for the workers the caller wakes.
public final class FollowUpJobs: JobAdopter {
    let lease: JobLease
    let runnableKinds: Set<String>
    /// How many more jobs the worker may run beside its others, this run's own slot included.
    let freeSlots: @Sendable () -> Int
    /// Where jobs adopted after the worker took this run's (`take`) go: a handler the worker
    /// stopped waiting for (its timeout, a shutdown's drain) may still commit. The worker puts
    /// them back for any worker to claim, without spending an attempt.
    let late: @Sendable ([ClaimedJob]) -> Void
    private let state = Mutex<(adopted: [ClaimedJob], taken: Bool)>(([], false))

    /// - Parameters:
    ///   - lease: the worker's (`limit` is ignored: `freeSlots` sets it when a statement asks).
    ///   - runnableKinds: the kinds the worker has handlers for; jobs of any other kind are
    ///     inserted available.
    public init(lease: JobLease, runnableKinds: Set<String>, freeSlots: @escaping @Sendable () -> Int = { .max },
                late: @escaping @Sendable ([ClaimedJob]) -> Void = { _ in }) {
        self.lease = lease
        self.runnableKinds = runnableKinds
        self.freeSlots = freeSlots
        self.late = late
    }

    /// The jobs inserted claimed by this run's worker so far.
    public var jobs: [ClaimedJob] {
        state.withLock { $0.adopted }
    }

    /// The lease under which a statement may insert jobs of `kind` now: none when the worker
    /// has no handler for it or no slot free (past its free slots, it would run more than its
    /// concurrency), less the jobs this run has already been given; none once the worker has
    /// taken this run's jobs.
    public func lease(forRunning kind: String) -> JobLease? {
        guard runnableKinds.contains(kind) else { return nil }
        let (given, taken) = state.withLock { ($0.adopted.count, $0.taken) }
        guard !taken else { return nil }
        var lease = lease
        lease.limit = max(0, freeSlots() - given)
        return lease.limit > 0 ? lease : nil
    }

    public func adopt(_ jobs: [ClaimedJob]) {
        guard !jobs.isEmpty else { return }
        let wasTaken = state.withLock { state -> Bool in
            if !state.taken { state.adopted += jobs }
            return state.taken
        }
        if wasTaken { late(jobs) }
    }

    /// The adopted jobs, handed over once (to the worker, when the handler has returned or
    /// been given up on); any adopted later go to `late`.
    func take() -> [ClaimedJob] {
        state.withLock { state in
            state.taken = true
            defer { state.adopted = [] }
            return state.adopted
        }
    }
}
