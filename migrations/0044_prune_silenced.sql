-- A silenced delivery (0043) is finished as a delivered or dead one is: nothing sends it
-- unless an operator redrives it. Retention removes its payload and attempts after the same
-- time, so the pruner's two partial indexes (0025) now hold silenced deliveries too. Like
-- 0025's, these are built without CONCURRENTLY (a migration runs in a transaction): the build
-- blocks writes to deliveries for as long as it reads the finished ones once.
DROP INDEX deliveries_payload_kept;
CREATE INDEX deliveries_payload_kept ON deliveries (updated_at)
    WHERE payload IS NOT NULL AND state IN ('delivered', 'dead', 'silenced');
DROP INDEX deliveries_attempts_kept;
CREATE INDEX deliveries_attempts_kept ON deliveries (updated_at)
    WHERE attempts_removed_at IS NULL AND state IN ('delivered', 'dead', 'silenced');
