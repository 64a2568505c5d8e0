-- Sync whose cost follows changes (issue 30): a pass walks the widest tier of its windows that
-- is due (the last day every pass, the week hourly, the whole lookback daily by default), so
-- the pass under way names its tier, and each tier's last complete pass is kept by name. A
-- tiny table: adding two columns with constant defaults rewrites nothing.
ALTER TABLE sync_state ADD COLUMN pass_tier text,
    ADD COLUMN tiers_completed jsonb NOT NULL DEFAULT '{}'::jsonb;
