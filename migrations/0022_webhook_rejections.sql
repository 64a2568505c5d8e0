-- The last webhooks refused for their signature, by shape only (issue 30): which signature
-- headers, the value's encoding and length, never the value and never the body, so an operator
-- whose every webhook is refused can see what Entrupy presents. The receiver keeps about the
-- newest 1,000 and records at most 20 a second per process (a flood of forgeries costs the
-- database no more). Expand only: a new table that releases before this one never touch.
CREATE TABLE webhook_rejections (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    received_at    timestamptz NOT NULL DEFAULT now(),
    reason         text        NOT NULL,
    headers        text[]      NOT NULL,
    encoding       text        NOT NULL,
    value_length   integer     NOT NULL,
    body_bytes     integer,
    client_address text,
    request_id     text
);
