-- Customer item IDs and usernames are searched by prefix, as people type them (issue 12). The
-- database's collation is not C, so a plain btree cannot serve LIKE 'prefix%'; these can.
CREATE INDEX items_customer_item_id_prefix ON items (customer_item_id text_pattern_ops) WHERE customer_item_id IS NOT NULL;
CREATE INDEX items_username_prefix ON items (username text_pattern_ops) WHERE username IS NOT NULL;
