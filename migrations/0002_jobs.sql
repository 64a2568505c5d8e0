-- The work queue. Claimed with FOR UPDATE SKIP LOCKED, woken by NOTIFY on channel
-- relay_jobs (a statement trigger, so every way of enqueueing wakes the workers).
CREATE TABLE jobs (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             text        NOT NULL,
    args             jsonb       NOT NULL DEFAULT '{}'::jsonb,
    state            text        NOT NULL DEFAULT 'available'
        CHECK (state IN ('available', 'running', 'retryable', 'completed', 'dead')),
    attempt          integer     NOT NULL DEFAULT 0,
    max_attempts     integer     NOT NULL DEFAULT 25 CHECK (max_attempts > 0),
    scheduled_at     timestamptz NOT NULL DEFAULT now(),
    lease_expires_at timestamptz,
    leased_by        text,
    errors           jsonb       NOT NULL DEFAULT '[]'::jsonb,
    unique_key       text,
    created_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);

-- A job with the same unique key is not enqueued twice while one is unfinished.
CREATE UNIQUE INDEX jobs_unique_key_unfinished ON jobs (unique_key)
    WHERE unique_key IS NOT NULL AND state NOT IN ('completed', 'dead');
CREATE INDEX jobs_claimable ON jobs (scheduled_at, id) WHERE state IN ('available', 'retryable');
CREATE INDEX jobs_running_lease ON jobs (lease_expires_at) WHERE state = 'running';
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE state IN ('completed', 'dead');

CREATE FUNCTION relay_jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('relay_jobs', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER jobs_notify_on_insert AFTER INSERT ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION relay_jobs_notify();
