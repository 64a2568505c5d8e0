// The migrations compiled into the binary: one line per file of this folder, in order.
// A new migration is a new NNNN_name.sql here and its line below (MigrationTests checks the two agree);
// SwiftPM names a file's bytes after it, its first digit made "_" (0001_x.sql is _001_x_sql).

/// Each migration file's name and bytes.
public let embeddedMigrations: [(file: String, sql: [UInt8])] = [
    ("0001_webhook_events.sql", PackageResources._001_webhook_events_sql),
    ("0002_jobs.sql", PackageResources._002_jobs_sql),
    ("0003_items.sql", PackageResources._003_items_sql),
    ("0004_deliveries.sql", PackageResources._004_deliveries_sql),
    ("0005_access_and_search.sql", PackageResources._005_access_and_search_sql),
    ("0006_item_counts.sql", PackageResources._006_item_counts_sql),
    ("0007_one_queue.sql", PackageResources._007_one_queue_sql),
    ("0008_masked_targets.sql", PackageResources._008_masked_targets_sql),
    ("0009_reconciliation_note.sql", PackageResources._009_reconciliation_note_sql),
    ("0010_sdk_users_mirror.sql", PackageResources._010_sdk_users_mirror_sql),
    ("0011_sync.sql", PackageResources._011_sync_sql),
    ("0012_api_budget.sql", PackageResources._012_api_budget_sql),
    ("0013_api_budget_unlogged.sql", PackageResources._013_api_budget_unlogged_sql),
    ("0014_prefix_search.sql", PackageResources._014_prefix_search_sql),
    ("0015_overview.sql", PackageResources._015_overview_sql),
    ("0016_final_result_times.sql", PackageResources._016_final_result_times_sql),
    ("0017_api_budget_inline.sql", PackageResources._017_api_budget_inline_sql),
    ("0018_item_counts_by_row.sql", PackageResources._018_item_counts_by_row_sql),
    ("0019_security_review.sql", PackageResources._019_security_review_sql),
    ("0020_delivery_keys.sql", PackageResources._020_delivery_keys_sql),
    ("0021_flag_kinds.sql", PackageResources._021_flag_kinds_sql),
    ("0022_webhook_rejections.sql", PackageResources._022_webhook_rejections_sql),
    ("0023_sync_tiers.sql", PackageResources._023_sync_tiers_sql),
    ("0024_item_fetch_leases.sql", PackageResources._024_item_fetch_leases_sql),
    ("0025_retention.sql", PackageResources._025_retention_sql),
    ("0026_change_feed.sql", PackageResources._026_change_feed_sql),
    ("0027_bulk_actions.sql", PackageResources._027_bulk_actions_sql),
    ("0028_target_health.sql", PackageResources._028_target_health_sql),
    ("0029_operational_events.sql", PackageResources._029_operational_events_sql),
    ("0030_delivery_search.sql", PackageResources._030_delivery_search_sql),
    ("0031_job_trace_context.sql", PackageResources._031_job_trace_context_sql),
    ("0032_support_view_alerts.sql", PackageResources._032_support_view_alerts_sql),
]
