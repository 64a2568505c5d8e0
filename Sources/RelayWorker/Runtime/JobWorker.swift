import Logging
import Metrics
import PostgresNIO
import RelayCore
import RelayStore
import ServiceLifecycle
import Synchronization

/// Claims jobs and runs them with their handlers. Woken by `LISTEN relay_jobs`, and polling
/// at a low rate besides, so a lost notification only delays. While a job runs its lease is
/// renewed; if this process dies the lease runs out and any worker's maintenance pass makes
/// the job claimable again. On graceful shutdown it stops claiming and lets running jobs finish.
public final class JobWorker: Service, Sendable {
    let queue: PostgresJobQueue
    let client: PostgresClient
    let handlers: [String: any JobHandler]
    let configuration: JobWorkerConfiguration
    let logger: Logger
    let wake = WakeSignal()
    private let stopping = Mutex(false)
    private let running = Mutex(0)
    private let backoff: Backoff
    private let completions: CompletionBatcher

    private let availableGauge = Gauge(label: "relay_jobs_available")
    private let oldestGauge = Gauge(label: "relay_jobs_oldest_available_seconds")
    private let runningGauge = Gauge(label: "relay_jobs_running")
    private let deadGauge = Gauge(label: "relay_jobs_dead")

    public init(queue: PostgresJobQueue, client: PostgresClient, handlers: [any JobHandler],
                configuration: JobWorkerConfiguration, logger: Logger) {
        self.queue = queue
        self.client = client
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.configuration = configuration
        self.backoff = Backoff(base: configuration.backoffBase, cap: configuration.backoffCap)
        self.completions = CompletionBatcher(queue: queue, worker: configuration.workerID, logger: logger)
        var logger = logger
        logger[metadataKey: "worker"] = .string(configuration.workerID)
        self.logger = logger
    }

    public func run() async throws {
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { background in
                background.addTask { await self.listenLoop() }
                background.addTask { await self.maintenanceLoop() }
                let completer = Task { await self.completions.run() }
                await withDiscardingTaskGroup { jobs in
                    await self.claimLoop(jobs: &jobs)
                }
                // Every job has finished: write the last completions, then stop the helpers.
                completer.cancel()
                await completer.value
                background.cancelAll()
            }
        } onGracefulShutdown: {
            self.stopping.withLock { $0 = true }
            self.wake.signal()
        }
        logger.info("worker stopped")
    }

    private var isStopping: Bool { stopping.withLock { $0 } || Task.isCancelled }

    private func claimLoop(jobs: inout DiscardingTaskGroup) async {
        let kinds = Array(handlers.keys)
        while !isStopping {
            let free = configuration.concurrency - running.withLock { $0 }
            var claimed: [ClaimedJob] = []
            if free > 0 {
                do {
                    claimed = try await queue.claim(worker: configuration.workerID, limit: free, lease: configuration.lease, kinds: kinds)
                } catch {
                    logger.warning("claiming jobs failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
                }
            }
            for job in claimed {
                running.withLock { $0 += 1 }
                jobs.addTask {
                    await self.execute(job)
                    self.running.withLock { $0 -= 1 }
                    self.wake.signal()
                }
            }
            // A full claim suggests more work is waiting: go again at once.
            if claimed.isEmpty || claimed.count < free {
                await wake.wait(timeout: configuration.pollInterval)
            }
        }
    }

    /// Runs one job with its lease renewed, and records how it ended.
    func execute(_ job: ClaimedJob) async {
        let start = ContinuousClock.now
        var jobLogger = logger
        jobLogger[metadataKey: "job_id"] = "\(job.id)"
        jobLogger[metadataKey: "job_kind"] = .string(job.kind)
        let outcome: JobOutcome
        if let handler = handlers[job.kind] {
            outcome = await withTaskGroup(of: JobOutcome?.self) { group in
                group.addTask { await self.renewLease(job) ; return nil }
                group.addTask {
                    do { return try await handler.run(job) } catch {
                        return .retry(error: PostgresErrorText.describe(error), delay: nil)
                    }
                }
                var result: JobOutcome = .retry(error: "no outcome", delay: nil)
                while let next = await group.next() {
                    if let next {
                        result = next
                        group.cancelAll()
                    }
                }
                return result
            }
        } else {
            outcome = .discard(error: "no handler for job kind \(job.kind)")
        }
        await record(outcome, for: job, logger: jobLogger, since: start)
    }

    private func renewLease(_ job: ClaimedJob) async {
        let interval = configuration.lease / 3
        while !Task.isCancelled {
            do {
                try await Task.sleep(for: interval)
                let held = try await queue.extendLease(id: job.id, worker: configuration.workerID, lease: configuration.lease)
                if !held {
                    logger.warning("lost the lease on a running job", metadata: ["job_id": "\(job.id)"])
                    return
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("renewing a lease failed", metadata: ["job_id": "\(job.id)", "error": "\(PostgresErrorText.describe(error))"])
            }
        }
    }

    private func record(_ outcome: JobOutcome, for job: ClaimedJob, logger: Logger, since start: ContinuousClock.Instant) async {
        let worker = configuration.workerID
        let label: String
        do {
            switch outcome {
            case .completed:
                label = "completed"
                completions.add(job.id)
            case .snooze(let delay):
                label = "snoozed"
                try await queue.snooze(id: job.id, worker: worker, delay: delay)
            case .retry(let error, let delay):
                let state = try await queue.fail(id: job.id, worker: worker, error: error,
                                                 delay: delay ?? backoff.delay(afterAttempt: job.attempt))
                label = state == .dead ? "dead" : "retried"
                logger.warning("job failed", metadata: ["attempt": "\(job.attempt)", "error": "\(error)", "now": "\(label)"])
            case .discard(let error):
                label = "dead"
                try await queue.fail(id: job.id, worker: worker, error: error, delay: .zero, dead: true)
                logger.error("job discarded", metadata: ["error": "\(error)"])
            }
        } catch {
            // The lease will run out and the job will be rescued; nothing is lost.
            logger.error("recording a job outcome failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            return
        }
        Counter(label: "relay_jobs_total", dimensions: [("kind", job.kind), ("outcome", label)]).increment()
        Metrics.Timer(label: "relay_job_duration_seconds", dimensions: [("kind", job.kind)])
            .recordNanoseconds((ContinuousClock.now - start).nanoseconds)
    }

    /// Keeps NOTIFY flowing into `wake`, reconnecting after any failure.
    private func listenLoop() async {
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: "relay_jobs") { notifications in
                        for try await _ in notifications { self.wake.signal() }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.debug("LISTEN connection ended; reconnecting", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Rescues expired leases (within a second of their expiry), prunes old jobs, exports depth.
    private func maintenanceLoop() async {
        var lastPrune = ContinuousClock.now - .seconds(3600)
        while !Task.isCancelled {
            do {
                if try await queue.rescueExpiredLeases() > 0 { wake.signal() }
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
                if Task.isCancelled { return }
                logger.warning("job maintenance failed", metadata: ["error": "\(PostgresErrorText.describe(error))"])
            }
            try? await Task.sleep(for: configuration.maintenanceInterval)
        }
    }
}
