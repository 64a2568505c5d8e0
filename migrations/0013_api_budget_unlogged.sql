-- The API budget's row is rewritten by every Entrupy request, under its lock. Logged, each of
-- those one-statement transactions waited for its WAL flush while holding the lock, so every
-- API call of every replica queued behind one fsync: at 200 webhooks/s the reconciles fell
-- seconds behind (notify.sh, 23 Nov: p50 2.7 s end to end). The window is worth nothing after
-- a crash (PostgreSQL empties an unlogged table then; the budget puts its row back), so it is
-- not written to the WAL at all.
ALTER TABLE api_budget SET UNLOGGED;
