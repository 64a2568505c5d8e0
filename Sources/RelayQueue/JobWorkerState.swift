import Synchronization

/// What a `JobWorker` knows of its runs, shared by reference by its loops (claim, heartbeat,
/// bookkeeping) and the recorder's callback, under one lock.
final class JobWorkerState: Sendable {
    struct Runs {
        /// Every run this worker holds a lease on: executing, or finished and handed to the
        /// recorder (`recording`). A renewal that misses a run being recorded has usually met
        /// its record already (the recorder's callback comes after its commit), and a record
        /// that finds the lease gone says so itself.
        var held: [Int64: HeldRun] = [:]
        var executing = 0
        /// NOTIFY (or a rescue, or a run put back) says jobs are waiting: claim for every free slot.
        var notified = false
        /// The last claim got all it asked for, so more may be waiting. Without it (and with no
        /// NOTIFY and no poll due), a freed slot is no reason to ask: the queue was empty.
        var backlog = true
        var stopping = false
    }

    /// A run this worker holds a lease on: since when, and whether its outcome is being recorded.
    struct HeldRun {
        let since: ContinuousClock.Instant
        var recording = false
    }

    private let mutex = Mutex(Runs())

    func withLock<T>(_ body: (inout Runs) -> T) -> T { mutex.withLock { body(&$0) } }

    /// Runs now held by this worker, from now on: claimed, or inserted leased by a handler.
    func hold(_ jobs: [ClaimedJob]) {
        guard !jobs.isEmpty else { return }
        withLock { runs in
            runs.executing += jobs.count
            for job in jobs { runs.held[job.id] = HeldRun(since: .now) }
        }
    }
}
