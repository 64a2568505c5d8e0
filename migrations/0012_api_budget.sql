-- One Entrupy API budget for all replicas (issue 11): the send times of the requests made in
-- the last 1.2 seconds (a sliding window, so no second ever holds more than ENTRUPY_API_RATE
-- requests, with room for a request that leaves late), and the pause a 429's Retry-After
-- imposes on every replica. A request takes its place in one statement under the row's lock.
CREATE TABLE api_budget (
    name         text PRIMARY KEY,
    recent       timestamptz[] NOT NULL DEFAULT '{}',
    paused_until timestamptz   NOT NULL DEFAULT '1970-01-01 00:00:00+00'
);
INSERT INTO api_budget (name) VALUES ('entrupy');
