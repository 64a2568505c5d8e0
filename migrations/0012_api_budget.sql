-- One Entrupy API budget for all replicas (issue 11): a token bucket refilled lazily at the
-- organisation's rate (ENTRUPY_API_RATE), and the pause a 429's Retry-After imposes on every
-- replica. A request takes a token in one statement under the row's lock.
CREATE TABLE api_budget (
    name         text PRIMARY KEY,
    tokens       double precision NOT NULL DEFAULT 0,
    updated_at   timestamptz      NOT NULL DEFAULT now(),
    paused_until timestamptz      NOT NULL DEFAULT '1970-01-01 00:00:00+00'
);
INSERT INTO api_budget (name) VALUES ('entrupy');
