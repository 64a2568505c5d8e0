-- Every verified webhook, stored whole before it is acknowledged.
-- dedup_key is "id:<event id>" when the event names itself, else "sha256:<body hash>",
-- so a redelivery never becomes a second row: it only bumps duplicates.
CREATE TABLE webhook_events (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    dedup_key         text        NOT NULL,
    event_id          text,
    event_type        text,
    entrupy_id        text,
    customer_item_id  text,
    state             text        NOT NULL
        CHECK (state IN ('queued', 'unrecognised', 'unparseable', 'processed', 'failed')),
    parse_error       text,
    verified_by       text        NOT NULL CHECK (verified_by IN ('entrupy-signature', 'standard-webhooks')),
    body              bytea       NOT NULL,
    body_sha256       text        NOT NULL,
    headers           jsonb       NOT NULL DEFAULT '{}'::jsonb,
    client_address    text,
    request_id        text,
    duplicates        integer     NOT NULL DEFAULT 0,
    last_duplicate_at timestamptz,
    received_at       timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT webhook_events_dedup_key UNIQUE (dedup_key)
);

CREATE INDEX webhook_events_received_at ON webhook_events (received_at DESC, id DESC);
CREATE INDEX webhook_events_entrupy_id ON webhook_events (entrupy_id) WHERE entrupy_id IS NOT NULL;
CREATE INDEX webhook_events_customer_item_id ON webhook_events (customer_item_id) WHERE customer_item_id IS NOT NULL;
