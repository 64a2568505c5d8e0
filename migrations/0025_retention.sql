-- Retention and erasure (issue 31). Payloads go before their metadata: a webhook's body and
-- headers, a delivery's rendered payload and its partner's replies can be removed while the
-- rows that say what happened stay, and each says why its payload is gone ('expired' by a
-- retention setting, 'erased' on a person's request). Nothing here rewrites existing rows:
-- the new columns are NULL, and the CHECK constraints are NOT VALID (checked on every write
-- from now on, without scanning what is stored).
ALTER TABLE webhook_events ALTER COLUMN body DROP NOT NULL,
    ADD COLUMN body_removed text,
    ADD COLUMN body_removed_at timestamptz;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_body_removed_check
    CHECK (body_removed IN ('expired', 'erased') AND body IS NULL OR body_removed IS NULL AND body IS NOT NULL) NOT VALID;

ALTER TABLE deliveries ALTER COLUMN payload DROP NOT NULL,
    ADD COLUMN payload_removed text,
    -- When the delivery's attempt rows were deleted (its `attempts` count stays).
    ADD COLUMN attempts_removed_at timestamptz;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_payload_removed_check
    CHECK (payload_removed IN ('expired', 'erased') AND payload IS NULL OR payload_removed IS NULL AND payload IS NOT NULL) NOT VALID;

-- An item whose submitter's data was erased: what is fetched for it later is stored without
-- the people fields (the reconcile compares this flag as part of its basis).
ALTER TABLE items ADD COLUMN erased_at timestamptz;

-- The pruner's ways in: the oldest rows still holding what a setting removes, each a partial
-- index that holds only those rows, so a pass never walks what earlier passes pruned.
CREATE INDEX webhook_events_body_kept ON webhook_events (received_at) WHERE body IS NOT NULL;
CREATE INDEX deliveries_payload_kept ON deliveries (updated_at)
    WHERE payload IS NOT NULL AND state IN ('delivered', 'dead');
CREATE INDEX deliveries_attempts_kept ON deliveries (updated_at)
    WHERE attempts_removed_at IS NULL AND state IN ('delivered', 'dead');

-- The SDK users mirror's retention finds its oldest rows here.
CREATE INDEX sdk_users_last_authorized ON sdk_users (last_authorized_at);

-- A webhook event's row may now be deleted (its metadata retention). The timeline and the
-- reconciliation records keep the event's ID as a plain number ("webhook #123, pruned"):
-- as foreign keys, deleting one event looked for its referrers in two tables that have no
-- index on that column, a scan of each for every row deleted.
ALTER TABLE item_events DROP CONSTRAINT item_events_webhook_event_id_fkey;
ALTER TABLE reconciliations DROP CONSTRAINT reconciliations_webhook_event_id_fkey;

-- One row per erasure that ran: who asked, when, by what kind of key, and how many rows of
-- each kind it removed or redacted. Never the key itself or anything erased.
CREATE TABLE erasures (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    requested_at timestamptz NOT NULL DEFAULT now(),
    requested_by text        NOT NULL,
    selector     text        NOT NULL CHECK (selector IN ('unique_user_id', 'email', 'username', 'customer_item_id')),
    counts       jsonb       NOT NULL
);
