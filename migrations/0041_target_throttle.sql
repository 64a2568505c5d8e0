-- Issue 46: a rate limit per target (the rules file's `targets:` list), shared by every replica.
-- One row per throttled target (an origin, or 'smtp'), written by the deliver handler in one
-- statement (PostgresTargetThrottle.take) under the row's lock:
--   next_slot: when the next delivery may be sent; a delivery whose slot is due within a second
--              takes it (next_slot moves one period on) and waits for it;
--   next_call: the next appointment for a delivery that found no slot that close: it takes no
--              slot, its job sleeps until about the appointment, and appointments are handed out
--              one period apart, so a backlog wakes one delivery per slot, not all at once.
-- A target without a rate limit has no row and costs no statement. Unlogged, like the API budget:
-- after a crash PostgreSQL empties it, and the first delivery to each target starts it again.
CREATE UNLOGGED TABLE target_throttle (
    key        text        PRIMARY KEY,
    next_slot  timestamptz NOT NULL,
    next_call  timestamptz NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
