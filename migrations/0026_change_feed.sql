-- The change feed (issue 32, GET /v1/changes): every transition in an order a reader can follow
-- with a cursor and never skip one. Transition IDs are taken when a row is inserted, but the
-- transactions commit in their own order: a reader that saw ID 11 committed may later find
-- ID 10 commit, and a cursor by ID alone would skip it. So each row records the transaction
-- that wrote it, and the feed reads in (transaction, ID) order only the rows of transactions
-- older than every transaction still running: no row can later appear before them.
-- The column has no value on existing rows (no rewrite: they come first, as transaction 0)
-- and the writing transaction's ID on every new one.
ALTER TABLE item_events ADD COLUMN xact xid8;
ALTER TABLE item_events ALTER COLUMN xact SET DEFAULT pg_current_xact_id();
CREATE INDEX item_events_feed ON item_events ((coalesce(xact, '0'::xid8)), id);
