// The catalog, continued: sync, deliveries and targets, retention, the process and the API.
extension RelayMetric {
    // MARK: Sync by search (worker)
    public static let syncPasses = RelayMetric("relay_sync_passes_total", .counter, labels: ["tier"],
        "Sync passes over Entrupy's search that ended, by tier.")
    public static let syncPassDuration = RelayMetric("relay_sync_pass_duration_seconds", .timer,
        "Time one sync pass takes.")
    public static let syncBlindPasses = RelayMetric("relay_sync_blind_passes_total", .counter,
        "Complete sync passes that saw no items while the relay holds some in their window (sync status says what to check).")
    public static let syncPages = RelayMetric("relay_sync_pages_total", .counter,
        "Search pages read by sync passes.")
    public static let syncItemsChecked = RelayMetric("relay_sync_items_checked_total", .counter,
        "Items compared with what is stored by sync passes.")
    public static let syncChanges = RelayMetric("relay_sync_changes_total", .counter,
        "Items a sync pass found changed and applied.")
    public static let syncItemsUnreadable = RelayMetric("relay_sync_items_unreadable_total", .counter,
        "Entries of search pages that were not an item, skipped.")
    public static let syncApplyFailures = RelayMetric("relay_sync_apply_failures_total", .counter,
        "Changed items a sync pass could not store (the next pass tries again).")
    public static let syncLastCompleteTimestamp = RelayMetric("relay_sync_last_complete_timestamp_seconds", .gauge,
        "When the last complete sync pass ended, in seconds since the epoch.")
    public static let syncLastCompleteAge = RelayMetric("relay_sync_last_complete_age_seconds", .gauge,
        "Age of the last complete sync pass: well past the sync interval means sync is failing.")
    public static let syncLastItemsChecked = RelayMetric("relay_sync_last_items_checked", .gauge,
        "Items the last complete sync pass checked.")
    public static let syncLastChangesFound = RelayMetric("relay_sync_last_changes_found", .gauge,
        "Changed items the last complete sync pass found.")

    // MARK: Deliveries and targets (worker)
    public static let deliveries = RelayMetric("relay_deliveries_total", .counter, labels: ["channel", "outcome"],
        "Delivery attempts, by channel and the state they left the delivery in (dead: deliveries list --state dead).")
    public static let deliveryDuration = RelayMetric("relay_delivery_duration_seconds", .timer, labels: ["channel"],
        "Time one delivery attempt takes, by channel.")
    public static let deliveriesHeld = RelayMetric("relay_deliveries_held_total", .counter, labels: ["channel"],
        "Deliveries held because their target's breaker is open or the target disabled.")
    public static let deliveriesReleased = RelayMetric("relay_deliveries_released_total", .counter,
        "Held deliveries released to be sent again.")
    public static let deliveriesThrottled = RelayMetric("relay_deliveries_throttled_total", .counter, labels: ["channel"],
        "Deliveries put off because their target's rate limit had no slot free within a second (rules file targets:).")
    public static let deliveriesSilenced = RelayMetric("relay_deliveries_silenced_total", .counter, labels: ["channel"],
        "Deliveries a silence stopped: recorded silenced, not sent (silences list).")
    public static let deliveriesQuiet = RelayMetric("relay_deliveries_quiet_total", .counter, labels: ["channel"],
        "Times a delivery was put off until its rule's quiet hours end (rules file quiet_hours:).")
    public static let targetChanges = RelayMetric("relay_target_changes_total", .counter, labels: ["change"],
        "Changes of a target's state, by change: target.opened, target.disabled, target.recovered.")
    public static let targetState = RelayMetric("relay_target_state", .gauge, labels: ["target"],
        "Each target's state: 0 healthy, 1 open (failing), 2 disabled (targets list).")
    public static let targetHeldDeliveries = RelayMetric("relay_target_held_deliveries", .gauge, labels: ["target"],
        "Deliveries each target's breaker holds now.")
    public static let targetMaintenanceFailures = RelayMetric("relay_target_maintenance_failures_total", .counter,
        "Passes of the targets' probe, release and gauge service that failed.")

    // MARK: Retention (worker)
    public static let retentionPrunedRows = RelayMetric("relay_retention_pruned_rows_total", .counter, labels: ["kind"],
        "Rows removed by retention, by kind.")
    public static let retentionOldest = RelayMetric("relay_retention_oldest_seconds", .gauge, labels: ["kind"],
        "Age of the oldest row still holding what that kind's setting removes: well past it, the pruner is behind.")
    public static let retentionBatchDuration = RelayMetric("relay_retention_batch_duration_seconds", .timer, labels: ["kind"],
        "Time one retention batch takes, by kind.")
    public static let retentionWALBytes = RelayMetric("relay_retention_wal_bytes_total", .counter, labels: ["kind"],
        "Write-ahead log written by retention batches, in bytes, by kind.")
    public static let retentionPassDuration = RelayMetric("relay_retention_pass_duration_seconds", .timer,
        "Time one retention pass over every kind takes.")
    public static let retentionFailures = RelayMetric("relay_retention_failures_total", .counter, labels: ["kind"],
        "Retention batches or passes (kind all) that failed (prune --dry-run).")

    // MARK: The process, the API and the change feed
    public static let buildInfo = RelayMetric("relay_build_info", .gauge, labels: ["version"],
        "1, labelled with the release this process runs (entrupy-relay --version).")
    public static let changeFeedLag = RelayMetric("relay_change_feed_lag_seconds", .gauge,
        "Age of the oldest open transaction, which holds the change feed back (the operations port's /readyz names it).")
    public static let apiAuthFailures = RelayMetric("relay_api_auth_failures_total", .counter,
        "Presented but wrong tokens, at the API and the console's sign-in.")
    public static let sdkUsersWithoutUsername = RelayMetric("relay_sdk_users_without_username_total", .counter,
        "SDK authorizations Entrupy answered 409 without a username for a user the relay never stored.")

    // MARK: Hummingbird's, for every route (serve, and worker --port)
    public static let httpRequests = RelayMetric("hb_requests_total", .counter,
        labels: ["http_route", "http_request_method", "http_response_status_code"],
        "HTTP requests answered, by route, method and status (Hummingbird's hb.requests).")
    public static let httpRequestErrors = RelayMetric("hb_request_errors_total", .counter,
        labels: ["http_route", "http_request_method", "error_type"],
        "HTTP requests answered with an error, by route, method and status (Hummingbird's hb.request.errors).")
    public static let httpRequestDuration = RelayMetric("http_server_request_duration", .timer,
        labels: ["http_route", "http_request_method", "http_response_status_code"],
        "Time an HTTP request takes to answer, in seconds, by route, method and status.")
    public static let httpActiveRequests = RelayMetric("http_server_active_requests", .gauge, labels: ["http_request_method"],
        "HTTP requests being answered now, by method.")

    /// Every metric, in docs/monitoring.md's order.
    public static let catalog: [RelayMetric] = [
        webhookRequests, webhookIngestDuration, webhookBodyBytes, webhookReusedIDs, webhookRejections, ingestBatchSize,
        ingestCommitDuration, ingestCommitFailures, ingestDeadlineExceeded, webhookEventsCoalesced,
        jobs, jobDuration, jobClaimDuration, jobsAvailable, jobsOldestAvailable, jobsRunning, jobsDead,
        reconciles, reconcileLatency, reconcileCoalesced, reconcileLeaseWaits, transitions, entrupyAPIRequests,
        entrupyAPIDuration, entrupyBudgetWait, entrupyUp, countFoldDuration, countFoldFailures,
        syncPasses, syncPassDuration, syncBlindPasses, syncPages, syncItemsChecked, syncChanges, syncItemsUnreadable,
        syncApplyFailures, syncLastCompleteTimestamp, syncLastCompleteAge, syncLastItemsChecked, syncLastChangesFound,
        deliveries, deliveryDuration, deliveriesHeld, deliveriesReleased, deliveriesThrottled, deliveriesSilenced, deliveriesQuiet, targetChanges, targetState, targetHeldDeliveries,
        targetMaintenanceFailures,
        retentionPrunedRows, retentionOldest, retentionBatchDuration, retentionWALBytes, retentionPassDuration, retentionFailures,
        buildInfo, changeFeedLag, apiAuthFailures, sdkUsersWithoutUsername,
        httpRequests, httpRequestErrors, httpRequestDuration, httpActiveRequests,
    ]
}
