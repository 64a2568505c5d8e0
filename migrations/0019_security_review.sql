-- The second security review (issue 27).

-- Delivery targets as people may see them: scheme and host only. A secret can sit in a
-- callback URL's path (`https://hooks.example.com/services/T0/B0/SECRET`) as well as in its
-- userinfo, query or fragment; migration 8 masked only the latter. New deliveries store the
-- target this way already; the full URL stays in the payload only the sender reads.
UPDATE deliveries
SET target = lower(substring(target FROM '^([A-Za-z][A-Za-z0-9+.-]*)://')) || '://'
             || substring(target FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#]*@)?([^/?#]*)')
             || CASE WHEN target ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*[/?#].' THEN '/***' ELSE '' END
WHERE channel = 'webhook' AND target ~ '^[A-Za-z][A-Za-z0-9+.-]*://';

-- Nobody but the owner creates objects in the public schema (PostgreSQL 15 already does this
-- for new databases; a database created by an older version, or restored into one, does not).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;

-- Tokens may expire: a token past its expiry is refused like a revoked one.
ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;

-- Failed sign-ins per client address, in fixed windows, shared by every replica (N replicas
-- with a limiter each allowed N times the limit). Unlogged: a crash of PostgreSQL forgets
-- the counts, which only lets an attacker start a new window.
CREATE UNLOGGED TABLE auth_failures (
    client         text        PRIMARY KEY,
    window_started timestamptz NOT NULL,
    failures       integer     NOT NULL
);
CREATE INDEX auth_failures_window ON auth_failures (window_started);

-- Requests under way per token, shared by every replica: the expiry of each slot taken
-- (a slot a crashed process never gave back lapses on its own).
CREATE UNLOGGED TABLE api_token_slots (
    token_id bigint        PRIMARY KEY,
    held     timestamptz[] NOT NULL DEFAULT '{}'
);
