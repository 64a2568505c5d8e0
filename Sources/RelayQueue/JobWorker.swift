import AsyncAlgorithms
import Tracing
import Logging
import RelayModel
import Metrics
public import PostgresNIO
import RelayDatabase
import RelayRuntime
public import ServiceLifecycle

/// Claims jobs and runs them with their handlers. Woken by NOTIFY, and polling at a low rate
/// besides, so a lost notification only delays. Its parts: one heartbeat renews the leases
/// of every run this worker holds (`LeaseHeartbeat`); if the process dies the leases run out
/// and any worker's bookkeeping makes the jobs claimable again, counting the crash
/// (`QueueBookkeeping`, which also deletes old finished jobs and exports the queue's depth).
/// Finished runs are recorded in batches (`FinishBatcher`). On graceful shutdown it stops
/// claiming, lets running jobs finish, records them, then returns.
public final class JobWorker: Service, Sendable {
    let queue: PostgresJobQueue
    let handlers: [String: AnyJobHandler]
    let configuration: JobWorkerConfiguration
    let logger: Logger
    let wake = WakeSignal()
    private let backoff: Backoff
    private let finisher: FinishBatcher
    private let runs = JobWorkerState()
    /// What every run's `FollowUpJobs` leases jobs with, made once, not per run.
    private let lease: JobLease
    private let runnableKinds: Set<String>
    private let freeSlots: @Sendable () -> Int
    /// Where follow-up jobs committed by a handler this worker stopped waiting for go (see
    /// `FollowUpJobs.late`): back to the queue, as a shutdown's drain puts back a cut-short run
    /// (no attempt spent, no crash counted).
    private let putBack: @Sendable ([ClaimedJob]) -> Void
    /// Where the receiver of the same process hands its reconcile jobs, inserted already claimed
    /// by this worker (`JobHandoff`).
    public let handoff: JobHandoff
    /// Every run's `jobTimeout`, kept by one timer.
    private let deadlines = DeadlineWatch()
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
        let concurrency = configuration.concurrency
        freeSlots = { [runs] in
            // The asking run's own slot is free again once its handler returns.
            runs.withLock { concurrency - $0.executing } + 1
        }
        var workerLogger = logger
        workerLogger[metadataKey: "worker"] = .string(configuration.workerID)
        self.logger = workerLogger
        finisher = Self.recorder(queue: queue, recordsClient: recordsClient, configuration: configuration, runs: runs, wake: wake,
                                 metrics: JobMetrics(kinds: self.handlers.keys), logger: workerLogger)
        putBack = { [finisher] jobs in
            for job in jobs {
                finisher.add(.init(job: job, finish: JobFinish(id: job.id, attempt: job.attempt, outcome: .snooze(.zero)),
                                   record: nil, addedAt: .now))
            }
        }
        handoff = JobHandoff(lease: lease, runnableKinds: runnableKinds, freeSlots: { [runs] in runs.withLock { concurrency - $0.executing } },
                             wake: wake, putBack: putBack)
    }

    /// The batcher that records finished runs; once a batch is recorded its runs are no longer
    /// held, and a run put back (retry, snooze), which may be due at once, is worth a claim, as
    /// a NOTIFY would be.
    private static func recorder(queue: PostgresJobQueue, recordsClient: PostgresClient?, configuration: JobWorkerConfiguration,
                                 runs: JobWorkerState, wake: WakeSignal, metrics: JobMetrics, logger: Logger) -> FinishBatcher {
        FinishBatcher(client: queue.client, recordsClient: recordsClient, worker: configuration.workerID, lease: configuration.lease,
                      batchSize: configuration.claimBatch, logger: logger) { entries, states in
            let putBack = states.values.contains(.retryable)
            runs.withLock { runs in
                for entry in entries {
                    // Unless the job was claimed again since this run began (a retry due at once).
                    if let held = runs.held[entry.job.id], held.since <= entry.addedAt { runs.held[entry.job.id] = nil }
                }
                if putBack { runs.notified = true }
            }
            wake.signal()
            metrics.recordFinished(entries, states: states, logger: logger)
        }
    }

    public func run() async throws {
        let heartbeat = LeaseHeartbeat(queue: queue, worker: configuration.workerID, lease: configuration.lease, runs: runs, logger: logger)
        let bookkeeping = QueueBookkeeping(queue: queue, configuration: configuration, runs: runs, wake: wake, logger: logger)
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { background in
                background.addTask { await self.queue.listen { self.runs.withLock { $0.notified = true }; self.wake.signal() } }
                background.addTask { await bookkeeping.run() }
                background.addTask { await heartbeat.run() }
                background.addTask { await self.deadlines.run() }
                let recorder = Task { await self.finisher.run() }
                await withDiscardingTaskGroup { jobs in
                    await self.claimLoop(jobs: &jobs)
                    // Handed over but not started: back to the queue, for another worker.
                    self.putBack(self.handoff.close())
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
            self.runs.withLock { $0.stopping = true }
            self.wake.signal()
        }
        logger.info("worker stopped")
    }

    private var isStopping: Bool { runs.withLock { $0.stopping } || Task.isCancelled }

    /// Stopping: lets running jobs finish for `shutdownDrain`, then cancels the rest, whose
    /// runs are released (`execute`), so SIGTERM ends the worker in seconds whatever its jobs wait on.
    private func drain(jobs: inout DiscardingTaskGroup) async {
        let deadline = ContinuousClock.now + configuration.shutdownDrain
        while runs.withLock({ $0.executing }) > 0, ContinuousClock.now < deadline {
            await wake.wait(timeout: min(.milliseconds(100), max(.milliseconds(1), deadline - .now)))
        }
        let running = runs.withLock { $0.executing }
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
        return runs.withLock { run -> Int in
            let free = min(configuration.concurrency - run.executing, configuration.maxUnrecorded - unrecorded)
            guard free > 0 else { return 0 }
            let eager = run.notified || polled
            run.notified = false
            if eager { return free }
            return run.backlog && (run.executing == 0 || free >= configuration.claimBatch) ? free : 0
        }
    }

    private func claimLoop(jobs: inout DiscardingTaskGroup) async {
        var lastClaim = ContinuousClock.now
        while !isStopping {
            let handed = handoff.take()
            runs.hold(handed)
            for job in handed {
                jobs.addTask { await self.execute(job) }
            }
            let size = claimSize(polled: ContinuousClock.now - lastClaim >= configuration.pollInterval)
            var claimed: [ClaimedJob] = []
            if size > 0 {
                lastClaim = .now
                claimed = await claim(size)
            }
            runs.hold(claimed)
            for job in claimed {
                jobs.addTask { await self.execute(job) }
            }
            // A full claim suggests more work is waiting: go again at once.
            if claimed.isEmpty || claimed.count < size {
                await wake.wait(timeout: configuration.pollInterval)
            }
        }
    }

    /// Claims up to `size` jobs of the kinds this worker runs (none if the claim fails).
    private func claim(_ size: Int) async -> [ClaimedJob] {
        do {
            let started = ContinuousClock.now
            let claimed = try await queue.claim(worker: configuration.workerID, limit: size, lease: configuration.lease,
                                                kinds: Array(handlers.keys))
            claimTimer.record(duration: ContinuousClock.now - started)
            runs.withLock { $0.backlog = claimed.count == size }
            return claimed
        } catch {
            logger.warning("claiming jobs failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            return []
        }
    }

    /// Runs one job, hands its outcome to the recorder, then runs the jobs its handler
    /// inserted under the run's follow-up lease (`JobContext.followUps`).
    func execute(_ job: ClaimedJob) async {
        let start = ContinuousClock.now
        let followUps = FollowUpJobs(lease: lease, runnableKinds: runnableKinds, freeSlots: freeSlots, late: putBack)
        var context = JobContext(id: job.id, attempt: job.attempt, maxAttempts: job.maxAttempts, crashes: job.crashes,
                                 followUps: followUps, logger: logger)
        context.kind = job.kind
        var result = await outcome(of: job, context: context)
        // Cancelled by a shutdown's drain (`drain`): the run was cut short, not failed, so it
        // is put back without spending an attempt.
        if Task.isCancelled, runs.withLock({ $0.stopping }), case .retry = result.outcome {
            result.outcome = .snooze(.zero)
        }
        if case .retry(let error, nil) = result.outcome {
            result.outcome = .retry(error: error, delay: backoff.delay(afterAttempt: job.attempt))
        }
        // Jobs the handler enqueued under this worker's lease are held from now on, as claimed
        // ones are, whatever its outcome: they are committed, and claimed by nobody else.
        let next = followUps.take()
        runs.hold(next)
        runs.withLock { $0.held[job.id]?.recording = true }
        finisher.add(.init(job: job, finish: JobFinish(id: job.id, attempt: job.attempt, outcome: result.outcome),
                           record: result.record, addedAt: start))
        runs.withLock { $0.executing -= 1 }
        wake.signal()
        guard !next.isEmpty else { return }
        await withDiscardingTaskGroup { group in
            for job in next { group.addTask { await self.execute(job) } }
        }
    }

    /// The handler's result for one run, within `jobTimeout`: a throw or a timeout is a retry,
    /// a kind with no handler is discarded.
    private func outcome(of job: ClaimedJob, context: JobContext) async -> JobResult {
        guard let handler = handlers[job.kind] else { return .discard(error: "no handler for job kind \(job.kind)") }
        do {
            // The run continues the trace of what enqueued the job (nothing while tracing is off).
            return try await withSpan(job.kind, context: TraceParent.context(job.traceParent), ofKind: .consumer) { span in
                span.attributes["job.id"] = Int(job.id)
                span.attributes["job.attempt"] = job.attempt
                return try await deadlines.watch(configuration.jobTimeout) {
                    try await handler.run(job, context: context)
                }
            }
        } catch is DeadlineExceeded {
            context.logger.error("job ran past its timeout; it will run again", metadata: ["timeout": "\(configuration.jobTimeout)"])
            return .retry(error: "the run did not finish within \(configuration.jobTimeout.components.seconds) s (ENTRUPY_RELAY_JOB_TIMEOUT_SECONDS)")
        } catch {
            return .retry(error: PostgresErrorText.describe(error))
        }
    }
}
