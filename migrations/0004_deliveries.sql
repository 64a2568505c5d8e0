-- The outbox: one row per (transition, rule, action), inserted in the transaction that
-- recorded the transition, so a notification exists exactly when its cause does.
CREATE TABLE deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    item_event_id   bigint      NOT NULL REFERENCES item_events (id) ON DELETE CASCADE,
    entrupy_id      text        NOT NULL REFERENCES items (entrupy_id) ON DELETE CASCADE,
    rule            text        NOT NULL,
    action_index    integer     NOT NULL CHECK (action_index >= 0),
    channel         text        NOT NULL CHECK (channel IN ('email', 'webhook')),
    -- for people: the callback URL or the recipients
    target          text        NOT NULL,
    -- rendered content, so every attempt sends the same thing
    payload         jsonb       NOT NULL,
    -- a fingerprint naming the webhook signing secret; the secret itself is never stored
    signing_key_id  text,
    -- sent as webhook-id and in the Message-ID: the consumer's idempotency key
    idempotency_key text        NOT NULL UNIQUE DEFAULT 'dlv_' || replace(gen_random_uuid()::text, '-', ''),
    state           text        NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'failed', 'delivered', 'dead')),
    attempts        integer     NOT NULL DEFAULT 0,
    last_error      text,
    next_attempt_at timestamptz DEFAULT now(),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    delivered_at    timestamptz,
    CONSTRAINT deliveries_once UNIQUE (item_event_id, rule, action_index)
);

CREATE INDEX deliveries_item ON deliveries (entrupy_id, id);
CREATE INDEX deliveries_state ON deliveries (state, id);

-- Every attempt, successful or not: when, how long, what the target answered.
CREATE TABLE delivery_attempts (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    delivery_id      bigint      NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
    attempt          integer     NOT NULL,
    started_at       timestamptz NOT NULL,
    duration_ms      integer     NOT NULL,
    outcome          text        NOT NULL CHECK (outcome IN ('delivered', 'failed', 'dead')),
    status_code      integer,
    smtp_reply       text,
    error            text,
    response_excerpt text,
    worker           text
);

CREATE INDEX delivery_attempts_delivery ON delivery_attempts (delivery_id, id);
