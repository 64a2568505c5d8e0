-- Issue 42, finding 2: a breaker guards an endpoint (scheme, host, port and path), not an
-- origin, so one partner's refused messages hold no one else's. A key is the origin, or, for
-- a path other than "/", the origin, '/***#' and the first 16 hex digits of the SHA-256 of the
-- path as written (TargetKey.endpoint): the path itself is never stored in a key, as it may
-- be a secret. Keys stored before (origins) stay valid: they are the keys of root endpoints.
--
-- A delivery whose last attempt failed for reasons of its own (a 4xx judging the message, a
-- refused recipient, the relay's own configuration): the breaker did not count it, and an open
-- target's probe is chosen among the others first.
ALTER TABLE deliveries ADD COLUMN own_failure boolean NOT NULL DEFAULT false;

-- Held deliveries move from their origin's key to their endpoint's, each endpoint starting
-- from the state its origin had (open with its probe schedule, or disabled by the breaker), so
-- nothing held is released or forgotten by the upgrade.
CREATE TEMPORARY TABLE target_moves ON COMMIT DROP AS
    SELECT d.id, d.held_target AS origin,
           d.held_target || '/***#' || left(encode(sha256(convert_to(p.path, 'UTF8')), 'hex'), 16) AS endpoint
    FROM deliveries d
    CROSS JOIN LATERAL (SELECT substring(coalesce(d.payload ->> 'url', d.target) FROM '^[^:/?#]*://[^/?#]*(/[^?#]*)') AS path) p
    WHERE d.held_since IS NOT NULL AND d.channel = 'webhook' AND d.held_target ~ '^[a-z][a-z0-9+.-]*://[^/]+$'
      AND p.path IS NOT NULL AND p.path <> '/'
      -- A host an operator disabled holds every endpoint on it under its own key: those stay.
      AND NOT EXISTS (SELECT FROM delivery_targets o WHERE o.key = d.held_target AND o.state = 'disabled'
                                                    AND o.disabled_by IS DISTINCT FROM 'breaker');

INSERT INTO delivery_targets (key, state, state_since, failing_since, consecutive_failures, window_started_at, window_attempts,
                              window_failures, last_error, last_failure_at, last_success_at, probe_wait_ms, next_probe_at, disabled_by)
SELECT DISTINCT ON (m.endpoint) m.endpoint, t.state, t.state_since, t.failing_since, t.consecutive_failures, t.window_started_at,
       t.window_attempts, t.window_failures, t.last_error, t.last_failure_at, t.last_success_at, t.probe_wait_ms, t.next_probe_at,
       t.disabled_by
FROM target_moves m JOIN delivery_targets t ON t.key = m.origin
ORDER BY m.endpoint
ON CONFLICT (key) DO NOTHING;

UPDATE deliveries d SET held_target = m.endpoint FROM target_moves m WHERE d.id = m.id;

-- An origin's row that holds nothing any more is gone, unless an operator disabled it (it
-- now disables every endpoint on that host, PostgresTargetHealthStore.health, and `targets list` shows it to enable).
DELETE FROM delivery_targets t
WHERE t.key ~ '^[a-z][a-z0-9+.-]*://[^/]+$'
  AND NOT (t.state = 'disabled' AND t.disabled_by IS DISTINCT FROM 'breaker')
  AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.held_target = t.key AND d.held_since IS NOT NULL);
