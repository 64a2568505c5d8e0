-- Flags raised from the relay (issue 45): every request support makes to flag an item at
-- Entrupy, who made it, and what Entrupy answered. Shown on the item's timeline.
--
-- `requested_by` names who: `token NAME`, `console NAME` or `cli (USER)`, as migration 36's
-- audited actions do. `state` is `pending` while Entrupy is being asked, then `succeeded`,
-- `refused` (Entrupy or the relay said no: not flaggable, an unknown reason) or `failed`
-- (no usable answer: retry later). A repeat of a pending or succeeded request (same item,
-- reason and comment) is that request: the unique index makes a burst of repeats one call.
CREATE TABLE flag_requests (
    id             bigserial   PRIMARY KEY,
    entrupy_id     text        NOT NULL,
    reason         text        NOT NULL,
    comment        text,
    requested_by   text        NOT NULL,
    requested_at   timestamptz NOT NULL DEFAULT now(),
    state          text        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'refused', 'failed')),
    answered_at    timestamptz,
    -- Entrupy's HTTP status, when it answered at all.
    entrupy_status int,
    -- What Entrupy's answer meant, in the relay's words.
    answer         text,
    -- Set by an erasure of the item's person, which removes the comment (staff may have named
    -- them in it): an erased request no longer stands for its repeats.
    erased_at      timestamptz,
    -- Set when the same request comes again long after Entrupy accepted this one (its flag may
    -- have been resolved since): the new request is asked anew, and this one stands no more.
    superseded_at  timestamptz
);
CREATE UNIQUE INDEX flag_requests_live ON flag_requests (entrupy_id, reason, coalesce(comment, ''))
    WHERE state IN ('pending', 'succeeded') AND erased_at IS NULL AND superseded_at IS NULL;
CREATE INDEX flag_requests_item ON flag_requests (entrupy_id, requested_at);
