-- Cheaper per webhook (issue 43): every delivery is inserted pending and updated once when it
-- is sent, and neither write can be HOT (the update changes `state` and `updated_at`, which
-- indexes below name), so each index on `deliveries` takes an entry at both; an item takes
-- one in each of its indexes at every reconcile that changes it. Each index kept is listed
-- with the query it serves and its EXPLAIN line in docs/design.md ("Indexes, and the query
-- each serves"); these are the ones no query needs, or that another index serves.
-- (deliveries_rule_unsettled and deliveries_target_unsettled stay: without them a target's
-- failed deliveries, page 2, took 24.8 ms at p95 over a million deliveries, against 9.2.)

-- (state, id) for every delivery, two entries each (pending, then delivered), for the reads
-- of a state: a bulk retry (dead or failed only, by id) and a search by failed or dead.
-- deliveries_retryable holds only those rows, so a delivery sent at its first attempt never
-- enters it; a search by pending or delivered walks deliveries_created_id newest first (both
-- states are at the new end: what is pending is what is due now or held, which
-- deliveries_held finds by target). CREATE INDEX blocks writes to deliveries while it reads
-- the table (docs/benchmarks.md gives the time per million deliveries for 0030's three).
CREATE INDEX deliveries_retryable ON deliveries (state, id) WHERE state IN ('failed', 'dead');
DROP INDEX deliveries_state;

-- Served by items_customer_item_id_prefix (migration 14): a text_pattern_ops index answers
-- `=` as well as a prefix LIKE, and the planner already chose it for every equality
-- (item lookup by either ID, erasure); nothing orders items by customer item ID.
DROP INDEX items_customer_item_id;

-- The erased-key hash with the salt given, so that the planner inlines it: the form without
-- it reads the salt with a subquery, and a SQL function whose body has one is called, not
-- inlined, its body planned again at each call (four per reconcile, 0.18 ms of PostgreSQL a
-- webhook). The reconcile passes the salt from one join; erasures keep the two-argument form,
-- now this one with the salt read once. One definition of the hash still.
CREATE FUNCTION erased_subject_key(salt text, kind text, value text) RETURNS bytea
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT sha256(convert_to(salt || chr(31) || kind || chr(31) || value, 'UTF8')) $$;
CREATE OR REPLACE FUNCTION erased_subject_key(kind text, value text) RETURNS bytea
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$ SELECT erased_subject_key((SELECT key_salt FROM installation), kind, value) $$;
