-- Delivery search (issue 32): deliveries are listed newest first by (created_at, id), and each
-- filter a list takes has an index in that order: by rule, by target, by creation time alone
-- (replacing 0015's index on created_at, which the overview's range reads also use). By
-- idempotency key, item and state the indexes exist already (an item has few deliveries; a
-- state is read along the time index). CREATE INDEX blocks writes to deliveries while it
-- builds: docs/benchmarks.md gives the time per million deliveries; reconciles that create
-- deliveries meanwhile wait.
CREATE INDEX deliveries_rule ON deliveries (rule, created_at, id);
CREATE INDEX deliveries_target ON deliveries (target, created_at, id);
CREATE INDEX deliveries_created_id ON deliveries (created_at, id);
DROP INDEX deliveries_created;
-- Support looks for what did not arrive: a target's or a rule's failed, dead or pending
-- deliveries, a few among many delivered ones, each found without reading those.
CREATE INDEX deliveries_target_unsettled ON deliveries (target, created_at, id) WHERE state IN ('pending', 'failed', 'dead');
CREATE INDEX deliveries_rule_unsettled ON deliveries (rule, created_at, id) WHERE state IN ('pending', 'failed', 'dead');
