import AsyncAlgorithms
import Tracing
import Logging
import RelayCore
import Metrics
public import PostgresNIO
import RelayDatabase
import RelayRuntime
public import ServiceLifecycle
import Synchronization

/// Claims jobs and runs them with their handlers. Woken by NOTIFY, and polling at a low rate
/// besides, so a lost notification only delays. One heartbeat renews the leases of every run
/// this worker holds; if the process dies the leases run out and any worker's maintenance
/// pass makes the jobs claimable again (counting the crash). Finished runs are recorded in
/// batches (`FinishBatcher`). On graceful shutdown it stops claiming, lets running jobs
/// finish, records them, then returns.
public final class JobWorker: Service, Sendable {
    let queue: PostgresJobQueue
    let handlers: [String: AnyJobHandler]
    let configuration: JobWorkerConfiguration
    let logger: Logger
    let wake = WakeSignal()
    private let backoff: Backoff
    private let finisher: FinishBatcher
    private let state = Shared(RunState())
    /// What every run's `FollowUpJobs` leases jobs with, made once, not per run.
    private let lease: JobLease
    private let runnableKinds: Set<String>
    private let freeSlots: @Sendable () -> Int
    /// Where follow-up jobs committed by a handler this worker stopped waiting for go (see
    /// `FollowUpJobs.late`): back to the queue, as a shutdown's drain puts back a cut-short run
    /// (no attempt spent, no crash counted).
    private let putBack: @Sendable ([ClaimedJob]) -> Void
    /// Every run's `jobTimeout`, kept by one timer.
    private let deadlines = DeadlineWatch()
    private let metrics: JobMetrics

    private struct RunState {
        /// Every run this worker holds a lease on: executing, or finished and handed to the
        /// recorder (`recording`). A renewal that misses a run being recorded has usually met
        /// its record already (the recorder's callback comes after its commit), and a record
        /// that finds the lease gone says so itself.
        var held: [Int64: HeldRun] = [:]
        var executing = 0
        var notified = false
        /// The last claim got all it asked for, so more may be waiting. Without it (and with no
        /// NOTIFY and no poll due), a freed slot is no reason to ask: the queue was empty.
        var backlog = true
        var stopping = false
    }

    /// A run this worker holds a lease on: since when, and whether its outcome is being recorded.
    private struct HeldRun {
        let since: ContinuousClock.Instant
        var recording = false
    }

    /// Run state shared by reference with the recorder's callback.
    private final class Shared: Sendable {
        private let mutex: Mutex<RunState>
        init(_ value: RunState) { mutex = Mutex(value) }
        func withLock<T>(_ body: (inout RunState) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    private let availableGauge = MetricHandles.gauge(.jobsAvailable)
    private let oldestGauge = MetricHandles.gauge(.jobsOldestAvailable)
    private let runningGauge = MetricHandles.gauge(.jobsRunning)
    private let deadGauge = MetricHandles.gauge(.jobsDead)
    /// How long one claim statement takes: the first figure to grow if the jobs table bloats.
    private let claimTimer = MetricHandles.timer(.jobClaimDuration)

    /// - Parameter recordsClient: the pool for finished runs that carry their handler's writes
    ///   (a delivery's attempt and state), when `queue`'s pool is one whose commits do not wait
    ///   for the WAL flush; nil: `queue`'s pool.
    public init(queue: PostgresJobQueue, recordsClient: PostgresClient? = nil, handlers: [AnyJobHandler],
                configuration: JobWorkerConfiguration, logger: Logger) {
        self.queue = queue
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        self.backoff = Backoff(base: configuration.backoffBase, cap: configuration.backoffCap)
        lease = JobLease(worker: configuration.workerID, duration: configuration.lease)
        runnableKinds = Set(self.handlers.keys)
        let metrics = JobMetrics(kinds: self.handlers.keys)
        self.metrics = metrics
        let concurrency = configuration.concurrency
        freeSlots = { [state] in
            // The asking run's own slot is free again once its handler returns.
            state.withLock { concurrency - $0.executing } + 1
        }
        var workerLogger = logger
        workerLogger[metadataKey: "worker"] = .string(configuration.workerID)
        self.logger = workerLogger
        let state = self.state
        let wake = self.wake
        finisher = FinishBatcher(client: queue.client, recordsClient: recordsClient, worker: configuration.workerID, lease: configuration.lease,
                                 batchSize: configuration.claimBatch, logger: workerLogger) { [workerLogger] entries, states in
            // A run put back (retry, snooze) may be due at once: worth a claim, as a NOTIFY would be.
            let putBack = states.values.contains(.retryable)
            state.withLock { run in
                for entry in entries {
                    // Unless the job was claimed again since this run began (a retry due at once).
                    if let held = run.held[entry.job.id], held.since <= entry.addedAt { run.held[entry.job.id] = nil }
                }
                if putBack { run.notified = true }
            }
            wake.signal()
            Self.count(entries, states: states, metrics: metrics, logger: workerLogger)
        }
        putBack = { [finisher] jobs in
            for job in jobs {
                finisher.add(.init(job: job, finish: JobFinish(id: job.id, attempt: job.attempt, outcome: .snooze(.zero)),
                                   record: nil, addedAt: .now))
            }
        }
    }

    public func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { background in
                background.addTask { await self.queue.listen { self.state.withLock { $0.notified = true }; self.wake.signal() } }
                background.addTask { await self.maintenanceLoop() }
                background.addTask { await self.heartbeatLoop() }
                background.addTask { await self.deadlines.run() }
                let recorder = Task { await self.finisher.run() }
                await withDiscardingTaskGroup { jobs in
                    await self.claimLoop(jobs: &jobs)
                    await self.drain(jobs: &jobs)
                }
                // Every job has finished: record the last outcomes (within `shutdownFlush`, or
                // at once if the worker is cancelled: what cannot be written is dropped and its
                // jobs run again when their leases expire), then stop the helpers.
                finisher.close(flushWithin: configuration.shutdownFlush)
                await withTaskCancellationHandler {
                    await recorder.value
                } onCancel: {
                    self.finisher.close(flushWithin: .zero)
                }
                background.cancelAll()
            }
        } onGracefulShutdown: {
            self.state.withLock { $0.stopping = true }
            self.wake.signal()
        }
        logger.info("worker stopped")
    }

    private var isStopping: Bool { state.withLock { $0.stopping } || Task.isCancelled }

    /// Stopping: lets running jobs finish for `shutdownDrain`, then cancels the rest, whose
    /// runs are released (`execute`), so SIGTERM ends the worker in seconds whatever its jobs wait on.
    private func drain(jobs: inout DiscardingTaskGroup) async {
        let deadline = ContinuousClock.now + configuration.shutdownDrain
        while state.withLock({ $0.executing }) > 0, ContinuousClock.now < deadline {
            await wake.wait(timeout: min(.milliseconds(100), max(.milliseconds(1), deadline - .now)))
        }
        let running = state.withLock { $0.executing }
        if running > 0 {
            logger.notice("stopping: cancelling jobs still running; they are released to run again",
                          metadata: ["running": "\(running)", "drain": "\(configuration.shutdownDrain)"])
            jobs.cancelAll()
        }
    }

    /// How many jobs to claim now: none while too many runs wait to be recorded; all free
    /// slots when woken by NOTIFY (or a rescue) or when the poll is due; while the last claim
    /// came back full, once a batch's worth of slots is free (or none is busy); otherwise none:
    /// asking an empty queue again each time a run ends cost more than the runs themselves.
    private func claimSize(polled: Bool) -> Int {
        let unrecorded = finisher.unrecorded
        return state.withLock { run -> Int in
            let free = min(configuration.concurrency - run.executing, configuration.maxUnrecorded - unrecorded)
            guard free > 0 else { return 0 }
            let eager = run.notified || polled
            run.notified = false
            if eager { return free }
            return run.backlog && (run.executing == 0 || free >= configuration.claimBatch) ? free : 0
        }
    }

    private func claimLoop(jobs: inout DiscardingTaskGroup) async {
        let kinds = Array(handlers.keys)
        var lastClaim = ContinuousClock.now
        while !isStopping {
            let size = claimSize(polled: ContinuousClock.now - lastClaim >= configuration.pollInterval)
            var claimed: [ClaimedJob] = []
            if size > 0 {
                lastClaim = .now
                do {
                    let started = ContinuousClock.now
                    claimed = try await queue.claim(worker: configuration.workerID, limit: size, lease: configuration.lease, kinds: kinds)
                    claimTimer.record(duration: ContinuousClock.now - started)
                    let full = claimed.count == size
                    state.withLock { $0.backlog = full }
                } catch {
                    logger.warning("claiming jobs failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
                }
            }
            state.withLock { run in
                run.executing += claimed.count
                for job in claimed { run.held[job.id] = HeldRun(since: .now) }
            }
            for job in claimed {
                jobs.addTask { await self.execute(job) }
            }
            // A full claim suggests more work is waiting: go again at once.
            if claimed.isEmpty || claimed.count < size {
                await wake.wait(timeout: configuration.pollInterval)
            }
        }
    }

    /// Runs one job and hands its outcome to the recorder.
    func execute(_ job: ClaimedJob) async {
        let start = ContinuousClock.now
        var context = JobContext(id: job.id, attempt: job.attempt, maxAttempts: job.maxAttempts, crashes: job.crashes, logger: logger)
        context.kind = job.kind
        let followUps = FollowUpJobs(lease: lease, runnableKinds: runnableKinds, freeSlots: freeSlots, late: putBack)
        var result: JobResult
        if let handler = handlers[job.kind] {
            do {
                // The run continues the trace of what enqueued the job (nothing while tracing is off).
                result = try await withSpan(job.kind, context: TraceParent.context(job.traceParent), ofKind: .consumer) { span in
                    span.attributes["job.id"] = Int(job.id)
                    span.attributes["job.attempt"] = job.attempt
                    return try await deadlines.watch(configuration.jobTimeout) { [context] in
                        try await followUps.run { try await handler.run(job, context: context) }
                    }
                }
            } catch is DeadlineExceeded {
                context.logger.error("job ran past its timeout; it will run again", metadata: ["timeout": "\(configuration.jobTimeout)"])
                result = .retry(error: "the run did not finish within \(configuration.jobTimeout.components.seconds) s (ENTRUPY_RELAY_JOB_TIMEOUT_SECONDS)")
            } catch {
                result = .retry(error: PostgresErrorText.describe(error))
            }
        } else {
            result = .discard(error: "no handler for job kind \(job.kind)")
        }
        // Cancelled by a shutdown's drain (`drain`): the run was cut short, not failed, so it
        // is put back without spending an attempt.
        if Task.isCancelled, state.withLock({ $0.stopping }), case .retry = result.outcome {
            result.outcome = .snooze(.zero)
        }
        if case .retry(let error, nil) = result.outcome {
            result.outcome = .retry(error: error, delay: backoff.delay(afterAttempt: job.attempt))
        }
        // Jobs the handler enqueued under this worker's lease are held from now on, as claimed
        // ones are, whatever its outcome: they are committed, and claimed by nobody else.
        let next = followUps.take()
        state.withLock { run in
            run.executing += next.count
            for job in next { run.held[job.id] = HeldRun(since: .now) }
            run.held[job.id]?.recording = true
        }
        finisher.add(.init(job: job, finish: JobFinish(id: job.id, attempt: job.attempt, outcome: result.outcome),
                           record: result.record, addedAt: start))
        state.withLock { $0.executing -= 1 }
        wake.signal()
        guard !next.isEmpty else { return }
        await withDiscardingTaskGroup { group in
            for job in next { group.addTask { await self.execute(job) } }
        }
    }

    /// Metrics and logs for recorded runs.
    private static func count(_ entries: [FinishBatcher.Entry], states: [Int64: JobState], metrics: JobMetrics, logger: Logger) {
        let now = ContinuousClock.now
        for entry in entries {
            let label: String
            switch (entry.finish.outcome, states[entry.job.id]) {
            case (_, nil): label = "lost"
            case (.completed, _): label = "completed"
            case (.snooze, _): label = "snoozed"
            case (.retry(let error, _), let state?):
                label = state == .dead ? "dead" : "retried"
                logger.warning("job failed", metadata: [
                    "job_id": "\(entry.job.id)", "job_kind": "\(entry.job.kind)", "attempt": "\(entry.job.attempt)",
                    "error": "\(error)", "now": "\(label)"])
            case (.discard(let error), _):
                label = "dead"
                logger.error("job discarded", metadata: ["job_id": "\(entry.job.id)", "job_kind": "\(entry.job.kind)", "error": "\(error)"])
            }
            metrics.record(kind: entry.job.kind, outcome: label, duration: now - entry.addedAt)
        }
        let lost = entries.map(\.job.id).filter { states[$0] == nil }
        if !lost.isEmpty {
            logger.warning("finished runs whose outcome was not recorded (their lease was lost, or recording was given up); they run again",
                           metadata: ["job_ids": "\(lost)"])
        }
    }

    /// Renews every held lease in one statement, each third of the lease, until cancelled
    /// (after the last run is recorded). A lease is reported lost only when it was held a
    /// whole interval before the renewal began: a claim's rows (and a handler's leased jobs)
    /// reach the worker at CommandComplete, before their implicit commit, and a renewal whose
    /// snapshot predates that commit does not see them as running yet. Their leases are new;
    /// the next renewal keeps them.
    private func heartbeatLoop() async {
        let interval = configuration.lease / 3
        for await _ in AsyncTimerSequence(interval: interval, clock: .continuous) {
            let started = ContinuousClock.now
            let ids = state.withLock { Array($0.held.keys) }
            guard !ids.isEmpty else { continue }
            do {
                let kept = try await queue.heartbeat(ids: ids, worker: configuration.workerID, lease: configuration.lease)
                let lost = state.withLock { run in
                    ids.filter { id in
                        guard !kept.contains(id), let held = run.held[id], !held.recording else { return false }
                        return started - held.since >= interval
                    }
                }
                if !lost.isEmpty {
                    logger.warning("lost the lease on running jobs", metadata: ["job_ids": "\(lost)"])
                }
            } catch {
                // Cancelled: the worker is stopping, after every run was recorded (no lease to keep).
                guard !Task.isCancelled else { return }
                logger.warning("renewing leases failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            }
        }
    }

    /// Rescues expired leases (within a second of their expiry), prunes old jobs, exports depth.
    private func maintenanceLoop() async {
        var lastPrune = ContinuousClock.now - .seconds(3600)
        for await _ in AsyncTimerSequence(interval: configuration.maintenanceInterval, clock: .continuous).cancelOnGracefulShutdown() {
            do {
                let rescue = try await queue.rescueExpiredLeases(maxCrashes: configuration.maxCrashes)
                if rescue.retried > 0 {
                    state.withLock { $0.notified = true }
                    wake.signal()
                }
                if rescue.dead > 0 {
                    logger.error("jobs whose workers kept dying are dead", metadata: ["count": "\(rescue.dead)"])
                }
                if ContinuousClock.now - lastPrune > .seconds(60) {
                    let pruned = try await queue.prune(completedOlderThan: configuration.pruneCompletedAfter,
                                                       deadOlderThan: configuration.pruneDeadAfter)
                    if pruned > 0 { logger.info("pruned finished jobs", metadata: ["count": "\(pruned)"]) }
                    lastPrune = .now
                }
                let stats = try await queue.stats()
                availableGauge.record(stats.available)
                oldestGauge.record(stats.oldestAvailableSeconds)
                runningGauge.record(stats.running)
                deadGauge.record(stats.dead)
            } catch {
                // Cancelled: the worker is stopping; a pass cut short is no failure to report.
                guard !Task.isCancelled else { return }
                logger.warning("job maintenance failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            }
        }
    }
}
