public import RelayModel
public import RelayRuntime

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
    /// Which window each pass walks (`SyncTiers`).
    public var syncTiers: SyncTiers
    /// Categories searched besides the known ones (`SearchQuery.knownCategories`).
    public var syncCategories: [String]
    public var pruneCompletedHours: Int
    public var pruneDeadDays: Int
    /// When an item with no final result is overdue, per category, and how often to look (0: never).
    public var overdueThresholds: OverdueThresholds
    public var overdueIntervalSeconds: Int

    public init(reader: SettingsReader) throws {
        concurrency = try reader.integer(Self.concurrency)
        jobLeaseSeconds = try reader.integer(Self.jobLease)
        jobPollMilliseconds = try reader.integer(Self.jobPoll)
        jobBackoffBaseMilliseconds = try reader.integer(Self.jobBackoffBase)
        jobMaxCrashes = try reader.integer(Self.jobMaxCrashes)
        jobTimeoutSeconds = try reader.integer(Self.jobTimeout)
        jobShutdownDrainSeconds = try reader.integer(Self.jobShutdownDrain)
        reconcileMaxAttempts = try reader.integer(Self.reconcileMaxAttempts)
        notFoundWindowSeconds = try reader.integer(Self.notFoundWindow)
        sweepIntervalSeconds = try reader.integer(Self.sweepInterval)
        sweepAgeSeconds = try reader.integer(Self.sweepAge)
        syncIntervalSeconds = try reader.integer(Self.syncInterval)
        syncLookbackDays = try reader.integer(Self.syncLookback)
        syncBudgetShare = try reader.decimal(Self.syncBudgetShare)
        syncTiers = try reader.parsed(Self.syncTiers) { text throws(SettingProblem) in try SyncTiers(text) } ?? .standard
        syncCategories = try reader.parsed(Self.syncCategories) { text throws(SettingProblem) in
            try reader.list(text).map { name throws(SettingProblem) in
                guard name.count <= 64, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isLowercase || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }) else {
                    throw SettingProblem("each category is lower-case letters, digits, _ or -, as Entrupy writes them (sneakers); got \"\(name.prefix(64))\"")
                }
                return name
            }
        } ?? []
        pruneCompletedHours = try reader.integer(Self.pruneCompleted)
        pruneDeadDays = try reader.integer(Self.pruneDead)
        overdueThresholds = try reader.parsed(Self.overdueAfter) { text throws(SettingProblem) in try OverdueThresholds(text) } ?? .standard
        overdueIntervalSeconds = try reader.integer(Self.overdueInterval)
    }
}
