-- Issue 46: a throttled target's row remembers the period its slots and appointments were
-- handed out with (PostgresTargetThrottle.take). When the rules' rate limit for the target
-- changes (a reload), the next delivery's statement finds another period and resets the row
-- (next slot at most one new period away, appointments handed out again from it), so a
-- backlog booked at a mistaken slow rate is not kept waiting for it. 0: written before this
-- column, reset at its first use.
ALTER TABLE target_throttle ADD COLUMN period_us bigint NOT NULL DEFAULT 0;
