-- Every flag value means something (issue 30): v2's `reviewed_ok` (and any `reviewed…`) is a
-- flag reviewed, and any other value outside none / flagged / resolved is a flag changed, so no
-- change is silent. Expand only: the new check allows a superset of the old one's kinds, so the
-- rows already there satisfy it and it is added NOT VALID (no scan, a brief lock); releases
-- before this one read a kind as text and never write the new ones.
ALTER TABLE item_events DROP CONSTRAINT item_events_kind_check;
ALTER TABLE item_events ADD CONSTRAINT item_events_kind_check
    CHECK (kind IN ('item.created', 'result.changed', 'result.final',
                    'flag.raised', 'flag.cleared', 'flag.resolved', 'flag.reviewed', 'flag.changed')) NOT VALID;
