-- The API budget's row is rewritten by every Entrupy request, under its lock. At 200 requests
-- a second its window holds about 240 send times (2 KB), the size past which PostgreSQL
-- compresses a row's long values and moves them out of line: pglz_compress showed in the
-- profile of reconcile.sh, all of it spent while the lock was held. Rows stay whole and
-- uncompressed up to a page (about 1,000 send times); past that the array moves out of line
-- as it is, not compressed (send times compress poorly).
ALTER TABLE api_budget SET (toast_tuple_target = 8160);
ALTER TABLE api_budget ALTER COLUMN recent SET STORAGE EXTERNAL;
