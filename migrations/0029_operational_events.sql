-- Operational transitions (issue 32): a delivery gone dead, a target opened, disabled or
-- recovered. Rules that name them (`when: {transition: [delivery.dead]}`) notify someone, so
-- their deliveries are caused by one of these rows instead of an item's transition.
CREATE TABLE operational_events (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind        text        NOT NULL CHECK (kind IN ('delivery.dead', 'target.opened', 'target.disabled', 'target.recovered')),
    occurred_at timestamptz NOT NULL DEFAULT now(),
    target      text        NOT NULL,
    -- the dead delivery (delivery.dead); no foreign key: retention may remove it first
    delivery_id bigint,
    -- what the callbacks' `data` said
    data        jsonb       NOT NULL
);
CREATE INDEX operational_events_occurred ON operational_events (occurred_at);

-- A delivery has one cause: an item's transition or an operational one. Expand only: rows
-- written by 0.1.0 all have an item transition. (0.1.0 cannot read an operational delivery:
-- add rules naming operational transitions once every replica runs this release.) The check
-- is NOT VALID: it holds for every new row, and the rows before it all have an item transition
-- (the column was NOT NULL), so no scan of the table is made under this migration's lock.
ALTER TABLE deliveries ALTER COLUMN item_event_id DROP NOT NULL,
    ALTER COLUMN entrupy_id DROP NOT NULL,
    ADD COLUMN operational_event_id bigint REFERENCES operational_events (id) ON DELETE CASCADE,
    ADD CONSTRAINT deliveries_one_cause CHECK ((item_event_id IS NULL) <> (operational_event_id IS NULL)) NOT VALID;
CREATE UNIQUE INDEX deliveries_operational_once ON deliveries (operational_event_id, rule, action_index)
    WHERE operational_event_id IS NOT NULL;
