-- Re-verification by search (issue 11): a pass walks Entrupy's search API over the last
-- SYNC_LOOKBACK_DAYS and applies every item whose state differs, with source 'sync'.
ALTER TABLE item_events DROP CONSTRAINT item_events_source_check,
    ADD CONSTRAINT item_events_source_check CHECK (source IN ('webhook', 'sweep', 'backfill', 'manual', 'sync'));
ALTER TABLE reconciliations DROP CONSTRAINT reconciliations_source_check,
    ADD CONSTRAINT reconciliations_source_check CHECK (source IN ('webhook', 'sweep', 'backfill', 'manual', 'sync'));

-- One row per kind of pass. The pass under way keeps its window and the search cursor after
-- each page, so a replica that takes over after a restart resumes where it stopped; the last
-- complete pass is what `sync status` and the metrics report.
CREATE TABLE sync_state (
    name                  text PRIMARY KEY,
    pass_started_at       timestamptz,
    window_start          timestamptz,
    window_end            timestamptz,
    -- As Entrupy sent it (JSON text; text, not jsonb, so no byte of it can be refused).
    cursor                text,
    pages                 integer     NOT NULL DEFAULT 0,
    items_checked         integer     NOT NULL DEFAULT 0,
    changes_found         integer     NOT NULL DEFAULT 0,
    last_started_at       timestamptz,
    last_finished_at      timestamptz,
    last_items_checked    integer,
    last_changes_found    integer,
    last_error            text,
    last_error_at         timestamptz,
    updated_at            timestamptz NOT NULL DEFAULT now(),
    -- When the first pass ever started: items never seen that were submitted before it are
    -- history, recorded without notifying anyone (the first pass must not mail 90 days of items).
    first_started_at      timestamptz NOT NULL DEFAULT now()
);
