-- The console's overview (issue 12) reads the last 30 days of final results and deliveries;
-- these keep those reads to the days asked for instead of whole tables.
CREATE INDEX item_events_kind_occurred ON item_events (kind, occurred_at);
CREATE INDEX deliveries_created ON deliveries (created_at);
