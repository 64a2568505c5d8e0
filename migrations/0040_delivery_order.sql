-- Order per item and target (issue 46): a delivery for an item is not attempted while an earlier
-- one for the same item, channel and target is pending or failed. It is held behind that one:
-- `held_behind` names it, for the API and console, and for the statement that settles it
-- (delivered or dead), which clears the column and wakes the held delivery's job at once.
-- No foreign key: a row deleted by retention or erasure must not cost a lookup here, and the
-- deliver handler checks the blocker again on every run (a missing one holds nothing).
ALTER TABLE deliveries ADD COLUMN held_behind bigint;

-- The settling statement finds the deliveries held behind those it settles through this
-- index; it holds only the held ones (a few, while a target fails), so a delivery sent at
-- its first attempt never enters it (docs/design.md, "Indexes, and the query each serves").
CREATE INDEX deliveries_held_behind ON deliveries (held_behind) WHERE held_behind IS NOT NULL;
