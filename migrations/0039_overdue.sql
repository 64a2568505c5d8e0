-- Transitions that mean something to a marketplace (issue 45): `result.retake_requested` (a
-- result became data_required) and `result.overdue` (no final result past the item's
-- threshold, after a fresh fetch). Expand only, as migration 21: the new check allows a
-- superset of the old kinds, so it is added NOT VALID (no scan, a brief lock).
ALTER TABLE item_events DROP CONSTRAINT item_events_kind_check;
ALTER TABLE item_events ADD CONSTRAINT item_events_kind_check
    CHECK (kind IN ('item.created', 'result.changed', 'result.final',
                    'flag.raised', 'flag.cleared', 'flag.resolved', 'flag.reviewed', 'flag.changed',
                    'result.retake_requested', 'result.overdue')) NOT VALID;

-- The overdue pass's candidates: items with no final result, oldest submission first. Only
-- unfinished items are in it (a small share of the table once results arrive).
CREATE INDEX items_unfinished_submitted ON items (submitted_at) WHERE NOT result_final AND submitted_at IS NOT NULL;

-- Which item was found overdue at which threshold, and when: one row per item and threshold,
-- so the pass never asks again about an item it already reported (its `result.overdue` is in
-- item_events, written with the item in one transaction; this row is written after it).
CREATE TABLE item_overdue (
    entrupy_id text        NOT NULL REFERENCES items (entrupy_id) ON DELETE CASCADE,
    threshold  text        NOT NULL,
    found_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entrupy_id, threshold)
);
