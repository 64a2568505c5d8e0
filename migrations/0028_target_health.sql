-- Targets with health (issue 32): each callback origin, and the SMTP server, has one row that
-- every replica reads and updates, so a breaker opened by one replica holds deliveries in all.
-- A target that never failed has no row. See TargetBreaker for the state machine.
CREATE TABLE delivery_targets (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key                  text        NOT NULL UNIQUE,
    state                text        NOT NULL DEFAULT 'healthy' CHECK (state IN ('healthy', 'open', 'disabled')),
    state_since          timestamptz NOT NULL DEFAULT now(),
    failing_since        timestamptz,
    consecutive_failures integer     NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
    window_started_at    timestamptz,
    window_attempts      integer     NOT NULL DEFAULT 0 CHECK (window_attempts >= 0),
    window_failures      integer     NOT NULL DEFAULT 0 CHECK (window_failures >= 0),
    last_error           text,
    last_failure_at      timestamptz,
    last_success_at      timestamptz,
    probe_wait_ms        bigint      NOT NULL DEFAULT 0 CHECK (probe_wait_ms >= 0),
    next_probe_at        timestamptz,
    probe_delivery_id    bigint,
    probe_until          timestamptz,
    disabled_by          text,
    -- the last time its held backlog was released (at most a second's worth each second)
    drained_at           timestamptz,
    updated_at           timestamptz NOT NULL DEFAULT now()
);

-- A held delivery: due, but not attempted because its target (held_target) is open or
-- disabled. No attempt is counted; its job sleeps until a probe picks it or the target's
-- backlog drains. Expand only: an older release ignores both columns.
ALTER TABLE deliveries ADD COLUMN held_target text, ADD COLUMN held_since timestamptz;
CREATE INDEX deliveries_held ON deliveries (held_target, id) WHERE held_since IS NOT NULL;
