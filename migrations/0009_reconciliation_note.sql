-- What a fetch's timeline entry should say besides its outcome (issue 10, defect 11): for
-- instance that the item Entrupy returned had U+0000 in its data, stored as U+FFFD.
ALTER TABLE reconciliations ADD COLUMN note text;
