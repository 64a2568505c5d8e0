-- Email grouping and digests (issue 46): an email action with group_by and group_wait or
-- digest stores its group in the payload (`group`: key, values, timing). When a group is due,
-- one deliver job locks the group's deliveries that may be attempted and sends them as one
-- email; this index finds them. Partial: a delivery without a group never enters it (the
-- predicate is all an ungrouped insert pays), and a grouped one leaves it once settled. The
-- key is hashed: it holds item values (a brand), which may be longer than an index entry.
CREATE INDEX deliveries_email_group ON deliveries (rule, action_index, md5(payload->'group'->>'key'), id)
    WHERE channel = 'email' AND payload ? 'group' AND state IN ('pending', 'failed');
