-- Silences and quiet hours (issue 46).
--
-- A silence stops the deliveries whose transition it matches (by rule and by item fields)
-- from its start until it expires or is expired early. Every silence is kept after it ends:
-- who made it and why, who expired it and when. `matchers` holds the fields it matches, as the
-- API took them ({"transition": [...], "brand": [...]}); `rule` is NULL for every rule.
CREATE TABLE silences (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rule        text,
    matchers    jsonb       NOT NULL DEFAULT '{}',
    author      text        NOT NULL,
    reason      text        NOT NULL,
    starts_at   timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    expired_at  timestamptz,
    expired_by  text,
    CHECK (expires_at > starts_at)
);
-- The workers read the silences in force every few seconds: few rows, found by their end.
CREATE INDEX silences_in_force ON silences (expires_at) WHERE expired_at IS NULL;

-- A silenced delivery is never sent (unless redriven) and names the silence that stopped it;
-- the column stays after a redrive, so the worker knows the operator chose to send it.
-- The CHECK is NOT VALID: checked on every write from now on, without scanning what is stored.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_state_check,
    ADD COLUMN silence_id bigint,
    -- A delivery held for its rule's quiet hours: when the window opens. Shown only while
    -- it is in the future and the delivery is pending or failed; nothing clears it.
    ADD COLUMN quiet_until timestamptz;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_state_check
    CHECK (state IN ('pending', 'failed', 'delivered', 'dead', 'silenced')) NOT VALID;

-- A bulk redrive of silenced deliveries finds them here (deliveries_retryable holds failed and
-- dead ones only). Partial: a delivery that is never silenced never enters it.
CREATE INDEX deliveries_silenced ON deliveries (id) WHERE state = 'silenced';
