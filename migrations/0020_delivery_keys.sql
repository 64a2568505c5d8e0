-- A delivery's idempotency key (sent as webhook-id and in the email's Message-ID) is derived
-- from what the delivery is: the item, the transition and which occurrence of it on the item's
-- timeline, the rule and the action. After a restore, a transition the sync derives again is
-- sent under the key it had before, so partners can drop the repeat; a genuine repeat (a flag
-- raised, cleared and raised again) is another occurrence and gets a new key. This salt keeps
-- two installations' keys apart (a staging relay and a production one sending the same item to
-- one partner); it is data, so a restore brings it back with everything else.
-- Expand only: deliveries inserted by an older release keep the column's random default.
CREATE TABLE installation (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    key_salt text    NOT NULL DEFAULT replace(gen_random_uuid()::text, '-', '')
);
INSERT INTO installation DEFAULT VALUES;
