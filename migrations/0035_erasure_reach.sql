-- Erasure reaches what the items table does not know (issue 42, finding 4).
--
-- The keys an erasure named or found (Entrupy usernames and user IDs, Entrupy IDs, a customer
-- item ID) are remembered, each as a salted SHA-256 of its kind and value and never the value
-- itself: every reconcile looks its item's keys up here (one primary-key probe, inside its
-- commit statement), and one that names an erased key is stored without the people fields,
-- however long after the erasure it is first fetched.
CREATE TABLE erased_subjects (
    key        bytea  PRIMARY KEY,
    -- The erasure that remembered it (the record says who asked, and when).
    erasure_id bigint NOT NULL REFERENCES erasures (id)
);

-- The one hash of a key, for the erasure that writes it and the reconcile that reads it. The
-- installation's salt keeps a list of hashes from answering "was this username erased?" on its
-- own, without the database that holds the salt.
CREATE FUNCTION erased_subject_key(kind text, value text) RETURNS bytea
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT sha256(convert_to((SELECT key_salt FROM installation) || chr(31) || kind || chr(31) || value, 'UTF8')) $$;

-- v2 items name their submitter by `owner.user_id` (no username). An erasure finds them by a
-- scan of `items`: an expression index on it would be written by every reconcile (each update
-- of `raw` is a new index entry) to serve an operation run a few times a year.

-- An erasure that found nothing stored says so, rather than "done" with zero counts. Older
-- records are classified by their counts (the table holds one row per erasure: a few rows).
ALTER TABLE erasures ADD COLUMN outcome text NOT NULL DEFAULT 'erased'
    CHECK (outcome IN ('erased', 'matched_nothing'));
UPDATE erasures SET outcome = 'matched_nothing'
WHERE NOT EXISTS (SELECT FROM jsonb_each_text(counts) AS c (kind, n) WHERE c.n::numeric > 0);
