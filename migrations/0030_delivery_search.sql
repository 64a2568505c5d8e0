-- Delivery search (issue 32): by rule and by target, each newest first, at any size of the
-- outbox. (By idempotency key, item, state and creation time the indexes exist already.)
-- CREATE INDEX blocks writes to deliveries while it builds: see docs/benchmarks.md for the time
-- per million deliveries; reconciles that create deliveries meanwhile wait.
CREATE INDEX deliveries_rule ON deliveries (rule, id);
CREATE INDEX deliveries_target ON deliveries (target, id);
