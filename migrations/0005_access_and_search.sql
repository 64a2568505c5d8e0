-- API tokens: only a SHA-256 of each token is stored (tokens are 256 random bits, so a
-- fast hash is enough); the token itself is shown once, by `tokens create`.
CREATE TABLE api_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         text        NOT NULL CHECK (name <> ''),
    role         text        NOT NULL CHECK (role IN ('admin', 'support', 'consumer')),
    token_hash   text        NOT NULL UNIQUE,
    -- the first characters of the token, so people can tell tokens apart in `tokens list`
    hint         text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens (name) WHERE revoked_at IS NULL;

-- Console sign-ins: the cookie carries a random session ID, stored hashed; revoking the
-- token ends its sessions.
CREATE TABLE console_sessions (
    id_hash    text PRIMARY KEY,
    token_id   bigint      NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
    csrf_token text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);

-- SDK users authorised through POST /v1/sdk/authorize: Entrupy's username is how their
-- submissions are found.
CREATE TABLE sdk_users (
    unique_user_id     text PRIMARY KEY,
    username           text        NOT NULL,
    email              text        NOT NULL,
    first_name         text,
    last_name          text,
    -- Entrupy answered 409 on the latest call: it keeps the email and names of the first
    conflict           boolean     NOT NULL DEFAULT false,
    authorizations     integer     NOT NULL DEFAULT 1,
    created_at         timestamptz NOT NULL DEFAULT now(),
    last_authorized_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sdk_users_username ON sdk_users (username);

-- Every fetch of an item that reached the store: when, why, and what it changed.
CREATE TABLE reconciliations (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entrupy_id       text        NOT NULL REFERENCES items (entrupy_id) ON DELETE CASCADE,
    at               timestamptz NOT NULL DEFAULT now(),
    source           text        NOT NULL CHECK (source IN ('webhook', 'sweep', 'backfill', 'manual')),
    webhook_event_id bigint REFERENCES webhook_events (id) ON DELETE SET NULL,
    outcome          text        NOT NULL CHECK (outcome IN ('created', 'changed', 'unchanged', 'stale')),
    transitions      integer     NOT NULL DEFAULT 0
);
CREATE INDEX reconciliations_item ON reconciliations (entrupy_id, id);

-- Search: newest first by submission time (first sight when Entrupy gave none), with the
-- Entrupy ID breaking ties so the keyset cursor is exact. One index per filter, each in
-- that order, so a filtered page is an index range read, not a sort.
ALTER TABLE items ADD COLUMN listed_at timestamptz GENERATED ALWAYS AS (coalesce(submitted_at, first_seen_at)) STORED;
CREATE INDEX items_listed ON items (listed_at DESC, entrupy_id DESC);
CREATE INDEX items_result_listed ON items (result, listed_at DESC, entrupy_id DESC);
CREATE INDEX items_flag_listed ON items (flag, listed_at DESC, entrupy_id DESC);
CREATE INDEX items_brand_listed ON items (brand, listed_at DESC, entrupy_id DESC);
CREATE INDEX items_category_listed ON items (category, listed_at DESC, entrupy_id DESC);
CREATE INDEX items_username_listed ON items (username, listed_at DESC, entrupy_id DESC);
CREATE INDEX webhook_events_state ON webhook_events (state, id);

-- Read-only SQL for support staff who use psql: views in schema `support`, and a role
-- that may only read them. Grant it to a login role:
--   CREATE ROLE alice LOGIN PASSWORD '...' IN ROLE relay_support;
-- The views run with their owner's rights, so the role needs (and has) nothing on the
-- tables themselves: no raw webhook bodies, no rendered payloads, no token hashes.
CREATE SCHEMA support;

CREATE VIEW support.items AS
SELECT i.entrupy_id, i.customer_item_id, i.result, i.result_final, i.result_header, i.flag, i.brand, i.model,
       i.category, i.username, u.unique_user_id AS sdk_unique_user_id, i.certificate_url, i.submitted_at,
       i.first_seen_at, i.updated_at, i.fetched_at AS last_fetched_at
FROM items i
LEFT JOIN sdk_users u ON u.username = i.username;

CREATE VIEW support.deliveries AS
SELECT d.id, d.entrupy_id, e.kind AS transition, d.rule, d.channel, d.target, d.state, d.attempts, d.last_error,
       d.idempotency_key, d.created_at, d.next_attempt_at, d.delivered_at
FROM deliveries d JOIN item_events e ON e.id = d.item_event_id;

CREATE VIEW support.delivery_attempts AS
SELECT a.delivery_id, d.entrupy_id, a.attempt, a.started_at, a.duration_ms, a.outcome, a.status_code,
       a.smtp_reply, a.error, a.response_excerpt
FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id;

CREATE VIEW support.webhook_events AS
SELECT id, event_type, event_id, entrupy_id, customer_item_id, state, parse_error, last_error, verified_by,
       client_address, duplicates, received_at, processed_at
FROM webhook_events;

-- Everything that happened to an item, in order: one row per webhook, fetch, transition
-- and delivery attempt.  SELECT * FROM support.timeline WHERE entrupy_id = '...' ORDER BY at, seq;
CREATE VIEW support.timeline AS
SELECT w.entrupy_id, w.received_at AS at, 1 AS seq, 'webhook.received' AS kind,
       coalesce(w.event_type, '?') || ' (event ' || w.id || ', ' || w.state || ')' AS detail
FROM webhook_events w WHERE w.entrupy_id IS NOT NULL
UNION ALL
SELECT r.entrupy_id, r.at, 2, 'reconciled', r.source || ': ' || r.outcome || ', ' || r.transitions || ' transition(s)'
FROM reconciliations r
UNION ALL
SELECT t.entrupy_id, t.occurred_at, 3, t.kind, coalesce(t.from_value, '-') || ' -> ' || coalesce(t.to_value, '-')
FROM item_events t
UNION ALL
SELECT d.entrupy_id, a.started_at, 4, 'delivery.' || a.outcome,
       d.rule || ' ' || d.channel || ' to ' || d.target || ', attempt ' || a.attempt
       || coalesce(', HTTP ' || a.status_code, '') || coalesce(', ' || a.error, '')
FROM delivery_attempts a JOIN deliveries d ON d.id = a.delivery_id;

-- Roles belong to the whole cluster: several databases (or a concurrent migrate) may have
-- made it already, and a migrating user without CREATEROLE still gets the views.
DO $$
BEGIN
    BEGIN
        CREATE ROLE relay_support NOLOGIN;
    EXCEPTION
        WHEN duplicate_object OR unique_violation THEN NULL;
        WHEN insufficient_privilege THEN
            RAISE NOTICE 'role relay_support was not created (no CREATEROLE); the support views exist without it';
    END;
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'relay_support') THEN
        EXECUTE format('GRANT CONNECT ON DATABASE %I TO relay_support', current_database());
        GRANT USAGE ON SCHEMA support TO relay_support;
        GRANT SELECT ON ALL TABLES IN SCHEMA support TO relay_support;
    END IF;
END
$$;
