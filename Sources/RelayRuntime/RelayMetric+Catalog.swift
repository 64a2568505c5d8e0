// Every metric the relay emits, by the part that emits it: the `# HELP` of `/metrics` and the
// docs/monitoring.md's table (`entrupy-relay metrics reference`) are made from these lines.
extension RelayMetric {
    // MARK: Receiving webhooks (serve)
    public static let webhookRequests = RelayMetric("relay_webhook_requests_total", .counter, labels: ["outcome"],
        "Webhooks answered, by outcome: accepted, duplicate, unauthorized, too_large, unavailable, body_timeout, busy.")
    public static let webhookIngestDuration = RelayMetric("relay_webhook_ingest_duration_seconds", .timer, labels: ["outcome"],
        "Time from a webhook's arrival to its answer, by outcome.")
    public static let webhookBodyBytes = RelayMetric("relay_webhook_body_bytes", .recorder,
        "Size of each webhook body read, in bytes.")
    public static let webhookReusedIDs = RelayMetric("relay_webhook_reused_ids_total", .counter,
        "Webhooks whose id an earlier event of the same item had, with another body: stored as new events.")
    public static let webhookRejections = RelayMetric("relay_webhook_rejections_total", .counter, labels: ["header", "encoding", "reason"],
        "Webhooks refused for their signature, by the header, the value's encoding and why (events rejections shows them).")
    public static let ingestBatchSize = RelayMetric("relay_ingest_batch_size", .recorder,
        "Webhooks stored by each group commit.")
    public static let ingestCommitDuration = RelayMetric("relay_ingest_commit_duration_seconds", .timer,
        "Time one group commit of webhooks and their jobs takes.")
    public static let ingestCommitFailures = RelayMetric("relay_ingest_commit_failures_total", .counter,
        "Group commits that failed (their webhooks are answered 503 and sent again by Entrupy).")
    public static let ingestDeadlineExceeded = RelayMetric("relay_ingest_deadline_exceeded_total", .counter,
        "Webhooks whose commit did not finish within the store timeout (answered 503).")
    public static let webhookEventsCoalesced = RelayMetric("relay_webhook_events_coalesced_total", .counter,
        "Queued webhooks marked processed by a fetch of their item that already saw what they hint at.")

    // MARK: The job queue (worker)
    public static let jobs = RelayMetric("relay_jobs_total", .counter, labels: ["kind", "outcome"],
        "Job runs, by job kind and outcome: completed, snoozed, retried, dead, lost.")
    public static let jobDuration = RelayMetric("relay_job_duration_seconds", .timer, labels: ["kind"],
        "Time one job run takes, by job kind.")
    public static let jobClaimDuration = RelayMetric("relay_job_claim_duration_seconds", .timer,
        "Time one claim statement takes: the first figure to grow if the jobs table bloats.")
    public static let jobsAvailable = RelayMetric("relay_jobs_available", .gauge,
        "Jobs waiting to be claimed now.")
    public static let jobsOldestAvailable = RelayMetric("relay_jobs_oldest_available_seconds", .gauge,
        "Age of the oldest job waiting to be claimed: growing means the workers are behind.")
    public static let jobsRunning = RelayMetric("relay_jobs_running", .gauge,
        "Jobs being run now, by every worker.")
    public static let jobsDead = RelayMetric("relay_jobs_dead", .gauge,
        "Jobs that ran out of attempts (jobs list --state dead, jobs retry).")

    // MARK: Reconciling items (worker)
    public static let reconciles = RelayMetric("relay_reconcile_total", .counter, labels: ["source", "changed"],
        "Items fetched from Entrupy and compared with what is stored, by what asked and whether anything changed.")
    public static let reconcileLatency = RelayMetric("relay_reconcile_latency_seconds", .timer,
        "Time from a webhook's receipt to its item being updated.")
    public static let reconcileCoalesced = RelayMetric("relay_reconcile_coalesced_total", .counter,
        "Reconcile jobs with nothing to do: an earlier fetch of the item already covered them.")
    public static let reconcileLeaseWaits = RelayMetric("relay_reconcile_lease_waits_total", .counter,
        "Reconcile jobs snoozed because another replica was fetching the same item.")
    public static let transitions = RelayMetric("relay_transitions_total", .counter, labels: ["kind"],
        "Transitions recorded in items' timelines, by kind.")
    public static let entrupyAPIRequests = RelayMetric("relay_entrupy_api_requests_total", .counter, labels: ["route", "status"],
        "Requests to Entrupy's API, by route and answer status.")
    public static let entrupyAPIDuration = RelayMetric("relay_entrupy_api_duration_seconds", .timer, labels: ["route"],
        "Time one request to Entrupy's API takes, by route.")
    public static let entrupyBudgetWait = RelayMetric("relay_entrupy_budget_wait_seconds", .timer, labels: ["priority"],
        "Time a caller waited for the shared Entrupy API rate budget, by priority.")
    public static let entrupyUp = RelayMetric("relay_entrupy_up", .gauge,
        "1 when Entrupy's health route answers and accepts the token, else 0 (the operations port's /readyz says why).")
    public static let countFoldDuration = RelayMetric("relay_count_fold_duration_seconds", .timer,
        "Time one fold of the search count rollup takes.")
    public static let countFoldFailures = RelayMetric("relay_count_fold_failures_total", .counter,
        "Folds of the search count rollup that failed.")
}
