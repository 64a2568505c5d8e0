-- Coalescing across replicas (issue 30): the replica that fetches an item holds its lease for
-- the fetch; hints for the item elsewhere wait for it (snoozed, no attempt spent) and then
-- find their events covered by that fetch, so a burst costs at most two fetches wherever its
-- hints land. Unlogged: a lease is worth nothing after a crash, and an expired one is taken over.
CREATE UNLOGGED TABLE item_fetch_leases (
    item_key   text PRIMARY KEY,
    holder     uuid        NOT NULL,
    expires_at timestamptz NOT NULL
);
