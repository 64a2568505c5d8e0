-- The reconciled truth: one row per Entrupy authentication, as last fetched from the API.
CREATE TABLE items (
    entrupy_id       text PRIMARY KEY,
    customer_item_id text,
    result           text,
    result_final     boolean     NOT NULL DEFAULT false,
    result_header    text,
    result_message   text,
    flag             text        NOT NULL DEFAULT 'none',
    brand            text,
    model            text,
    category         text,
    username         text,
    certificate_url  text,
    submitted_at     timestamptz,
    first_seen_at    timestamptz NOT NULL DEFAULT now(),
    -- when the relay last saw the state change
    updated_at       timestamptz NOT NULL DEFAULT now(),
    -- when the API answer stored here was requested: an older answer never overwrites a newer one
    fetched_at       timestamptz NOT NULL,
    raw              jsonb       NOT NULL
);

CREATE INDEX items_customer_item_id ON items (customer_item_id) WHERE customer_item_id IS NOT NULL;
-- The sweep re-fetches unsettled items: not final, or flagged.
CREATE INDEX items_unsettled ON items (fetched_at) WHERE NOT result_final OR flag = 'flagged';

-- The timeline: each transition recorded once, in the transaction that stored the new state.
CREATE TABLE item_events (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entrupy_id       text        NOT NULL REFERENCES items (entrupy_id) ON DELETE CASCADE,
    kind             text        NOT NULL CHECK (kind IN ('item.created', 'result.changed', 'result.final',
                                                          'flag.raised', 'flag.cleared', 'flag.resolved')),
    from_value       text,
    to_value         text,
    occurred_at      timestamptz NOT NULL DEFAULT now(),
    source           text        NOT NULL CHECK (source IN ('webhook', 'sweep', 'backfill', 'manual')),
    webhook_event_id bigint REFERENCES webhook_events (id) ON DELETE SET NULL
);

CREATE INDEX item_events_timeline ON item_events (entrupy_id, occurred_at, id);

ALTER TABLE webhook_events
    ADD COLUMN processed_at timestamptz,
    ADD COLUMN last_error   text;
