-- Actions with an audit trail (issue 42, finding 7).
--
-- An operator's enable of a target is an operational transition (`target.enabled`), as an
-- operator's disable is (`target.disabled`, like the breaker's): rules can match both, and the
-- event's `data.by` names who (`token NAME`, `console NAME`, `cli (USER)`).
ALTER TABLE operational_events DROP CONSTRAINT operational_events_kind_check,
    ADD CONSTRAINT operational_events_kind_check
        CHECK (kind IN ('delivery.dead', 'target.opened', 'target.disabled', 'target.recovered', 'target.enabled'));

-- A bulk action's row is written before its work, `running`, with who asked, the filters and
-- what matched; `queued` and `progress_at` advance as it goes; it ends `done`, or `failed` with
-- its error. A row a dead process left `running` (no progress for a while) is marked
-- `interrupted` by the next bulk action. Rows from before were written after their work: done.
-- The default stays 'done' for a 0.x replica still running during a rolling upgrade (it writes
-- its row after the work, as before).
ALTER TABLE bulk_actions
    ADD COLUMN state       text NOT NULL DEFAULT 'done' CHECK (state IN ('running', 'done', 'failed', 'interrupted')),
    ADD COLUMN progress_at timestamptz,
    ADD COLUMN finished_at timestamptz,
    ADD COLUMN error       text;
UPDATE bulk_actions SET finished_at = requested_at, progress_at = requested_at;
CREATE INDEX bulk_actions_running ON bulk_actions (progress_at) WHERE state = 'running';
