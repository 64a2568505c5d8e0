public import RelayCore

/// How the worker runs jobs, reconciles and keeps the queue, from the environment.
public struct WorkerSettings: Sendable {
    /// Jobs one process runs at once.
    public var concurrency: Int
    public var jobLeaseSeconds: Int
    public var jobPollMilliseconds: Int
    public var jobBackoffBaseMilliseconds: Int
    /// Runs whose worker died before a job is dead instead of handed to the next worker.
    public var jobMaxCrashes: Int
    /// Longest run of one job before it counts as failed and is retried.
    public var jobTimeoutSeconds: Int
    /// On SIGTERM, how long running jobs may finish before they are cancelled and released.
    public var jobShutdownDrainSeconds: Int
    public var reconcileMaxAttempts: Int
    /// How long after a webhook an item the API does not know yet is still asked for.
    public var notFoundWindowSeconds: Int
    public var sweepIntervalSeconds: Int
    public var sweepAgeSeconds: Int
    /// Re-verification by search: how often a pass runs (0: never), how far back it looks, and
    /// the share of the API rate it may spend.
    public var syncIntervalSeconds: Int
    public var syncLookbackDays: Int
    public var syncBudgetShare: Double
    public var pruneCompletedHours: Int
    public var pruneDeadDays: Int

    public init(reader: EnvironmentReader) throws {
        concurrency = try reader.integer("WORKER_CONCURRENCY", default: 16, range: 1...1_000)
        jobLeaseSeconds = try reader.integer("JOB_LEASE_SECONDS", default: 30, range: 1...3_600)
        jobPollMilliseconds = try reader.integer("JOB_POLL_MS", default: 1_000, range: 10...60_000)
        jobBackoffBaseMilliseconds = try reader.integer("JOB_BACKOFF_BASE_MS", default: 1_000, range: 1...3_600_000)
        jobMaxCrashes = try reader.integer("JOB_MAX_CRASHES", default: 3, range: 1...100)
        jobTimeoutSeconds = try reader.integer("JOB_TIMEOUT_SECONDS", default: 120, range: 1...86_400)
        jobShutdownDrainSeconds = try reader.integer("JOB_SHUTDOWN_DRAIN_SECONDS", default: 5, range: 0...600)
        reconcileMaxAttempts = try reader.integer("RECONCILE_MAX_ATTEMPTS", default: 25, range: 1...1_000)
        notFoundWindowSeconds = try reader.integer("NOT_FOUND_WINDOW_SECONDS", default: 1800, range: 0...604_800)
        sweepIntervalSeconds = try reader.integer("SWEEP_INTERVAL_SECONDS", default: 60, range: 1...86_400)
        sweepAgeSeconds = try reader.integer("SWEEP_AGE_SECONDS", default: 300, range: 0...2_592_000)
        syncIntervalSeconds = try reader.integer("SYNC_INTERVAL_SECONDS", default: 900, range: 0...604_800)
        syncLookbackDays = try reader.integer("SYNC_LOOKBACK_DAYS", default: 90, range: 1...3_650)
        syncBudgetShare = try reader.decimal("SYNC_BUDGET_SHARE", default: 0.3, range: 0.01...1)
        pruneCompletedHours = try reader.integer("JOBS_PRUNE_COMPLETED_HOURS", default: 24, range: 1...87_600)
        pruneDeadDays = try reader.integer("JOBS_PRUNE_DEAD_DAYS", default: 30, range: 1...3_650)
    }
}
