public import RelayModel
public import RelayRuntime

/// The settings `WorkerSettings` reads, as the reference gives them.
extension WorkerSettings {
    public static let concurrency = IntegerSetting("worker_concurrency", default: 16, range: 1...1_000, "jobs one process runs at once")
    public static let jobLease = IntegerSetting("job_lease_seconds", default: 30, range: 1...3_600,
        "a claimed job's lease, renewed every third of it; a dead worker's jobs are claimable again within a second of expiry")
    public static let jobPoll = IntegerSetting("job_poll_ms", default: 1_000, range: 10...60_000,
        "claim attempts at least this often (NOTIFY wakes workers at once)")
    public static let jobBackoffBase = IntegerSetting("job_backoff_base_ms", default: 1_000, range: 1...3_600_000,
        "retry backoff: attempt n waits ½–1 × base·2ⁿ⁻¹, at most an hour")
    public static let jobMaxCrashes = IntegerSetting("job_max_crashes", default: 3, range: 1...100,
        "runs of one job whose worker died before the job is `dead` instead of handed to the next worker")
    public static let jobTimeout = IntegerSetting("job_timeout_seconds", default: 120, range: 1...86_400,
        "longest run of one job; past it the run counts as failed and the job is retried")
    public static let jobShutdownDrain = IntegerSetting("job_shutdown_drain_seconds", default: 5, range: 0...600,
        "on SIGTERM, how long running jobs may finish before they are cancelled and released (to run elsewhere, no attempt spent)")
    public static let reconcileMaxAttempts = IntegerSetting("reconcile_max_attempts", default: 25, range: 1...1_000,
        "then the reconcile job is `dead` (see `jobs retry`)")
    public static let notFoundWindow = IntegerSetting("not_found_window_seconds", default: 1_800, range: 0...604_800,
        "how long after a webhook an item the API answers 404 for is asked for again (backing off 2 s to 5 min)")
    public static let sweepInterval = IntegerSetting("sweep_interval_seconds", default: 60, range: 1...86_400,
        "how often items not final, or flagged, are looked at for a re-fetch")
    public static let sweepAge = IntegerSetting("sweep_age_seconds", default: 300, range: 0...2_592_000,
        "the sweep re-fetches such an item when its last fetch is older than this")
    public static let syncInterval = IntegerSetting("sync_interval_seconds", default: 900, range: 0...604_800,
        "a sync pass (re-verification by search) this long after the last complete one; 0 turns it off")
    public static let syncLookback = IntegerSetting("sync_lookback_days", default: 90, range: 1...3_650, "how far back in submissions a pass looks")
    public static let syncTiers = TextSetting("sync_tiers", takes: "`SPAN@EVERY` entries, comma-separated", default: SyncTiers.standardText,
        "which window a pass walks: the widest tier due (EVERY since it last completed; 0 is every pass; `all` is the whole lookback), "
            + "so a pass costs what changed, not 90 days of history")
    public static let syncBudgetShare = DecimalSetting("sync_budget_share", default: 0.3, range: 0.01...1,
        "the share of `entrupy_api_rate` a sync pass may spend")
    public static let syncCategories = TextSetting("sync_categories", takes: "category names, comma-separated",
        defaultText: "none", "product categories a sync pass or backfill searches besides sneakers, luxury and apparel "
            + "(Entrupy's search answers nothing without a category filter)")
    public static let overdueAfter = TextSetting("overdue_after", takes: "a length, then `category=LENGTH` entries, comma-separated",
        default: OverdueThresholds.standardText,
        "how long after submission an item with no final result is `result.overdue` (fetched first; once per item and length), "
            + "such as `24h,luxury=48h`; our choice, not Entrupy's (docs/entrupy.md)")
    public static let overdueInterval = IntegerSetting("overdue_interval_seconds", default: 300, range: 0...86_400,
        "how often items past `overdue_after` are looked for; 0 turns the overdue check off")
    public static let pruneCompleted = IntegerSetting("jobs_prune_completed_hours", default: 24, range: 0...87_600,
        "completed jobs are deleted after this age (0: within a minute of completing; their records stay in the webhook, "
            + "reconciliation and delivery tables)")
    public static let pruneDead = IntegerSetting("jobs_prune_dead_days", default: 30, range: 1...3_650, "dead jobs are deleted after this age")

    /// Every setting read here, in the reference's order.
    public static let catalog: [Setting] = [
        concurrency.setting, jobLease.setting, jobPoll.setting, jobBackoffBase.setting, jobMaxCrashes.setting, jobTimeout.setting,
        jobShutdownDrain.setting, reconcileMaxAttempts.setting, notFoundWindow.setting, sweepInterval.setting, sweepAge.setting,
        syncInterval.setting, syncLookback.setting, syncTiers.setting, syncBudgetShare.setting, syncCategories.setting,
        overdueAfter.setting, overdueInterval.setting, pruneCompleted.setting, pruneDead.setting,
    ]
}
