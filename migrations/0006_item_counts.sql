-- Exact counts without counting: how many items there are per UTC day and per UTC month for
-- each (result, flag, brand, category), so `total_count` over a million items is a sum of a
-- few thousand rows instead of a scan of hundreds of thousands.
--
-- Writers never touch the rollup (a hot row there would serialise every worker): statement
-- triggers on items append signed changes to item_count_changes, and fold_item_count_changes()
-- (run every few seconds by the worker) moves them into item_counts in one transaction.
-- Readers add both tables in one statement, so a count is exact whether or not a fold has run.
-- A missing value is stored as '' (never matched by a filter, counted when there is none).

CREATE TABLE item_counts (
    period   text   NOT NULL CHECK (period IN ('day', 'month')),
    bucket   date   NOT NULL,
    result   text   NOT NULL,
    flag     text   NOT NULL,
    brand    text   NOT NULL,
    category text   NOT NULL,
    n        bigint NOT NULL,
    PRIMARY KEY (period, bucket, result, flag, brand, category)
);

CREATE TABLE item_count_changes (
    bucket   date   NOT NULL,
    result   text   NOT NULL,
    flag     text   NOT NULL,
    brand    text   NOT NULL,
    category text   NOT NULL,
    n        bigint NOT NULL
);
CREATE INDEX item_count_changes_bucket ON item_count_changes (bucket);

CREATE FUNCTION item_count_bucket(listed_at timestamptz) RETURNS date
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT (listed_at AT TIME ZONE 'UTC')::date $$;

CREATE FUNCTION items_counted_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO item_count_changes (bucket, result, flag, brand, category, n)
    SELECT item_count_bucket(listed_at), coalesce(result, ''), coalesce(flag, ''), coalesce(brand, ''),
           coalesce(category, ''), count(*)
    FROM new_items GROUP BY 1, 2, 3, 4, 5;
    RETURN NULL;
END $$;

CREATE FUNCTION items_counted_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO item_count_changes (bucket, result, flag, brand, category, n)
    SELECT bucket, result, flag, brand, category, sum(n)
    FROM (SELECT item_count_bucket(listed_at) AS bucket, coalesce(result, '') AS result, coalesce(flag, '') AS flag,
                 coalesce(brand, '') AS brand, coalesce(category, '') AS category, 1 AS n FROM new_items
          UNION ALL
          SELECT item_count_bucket(listed_at), coalesce(result, ''), coalesce(flag, ''), coalesce(brand, ''),
                 coalesce(category, ''), -1 FROM old_items) AS moved
    GROUP BY 1, 2, 3, 4, 5
    HAVING sum(n) <> 0;
    RETURN NULL;
END $$;

CREATE FUNCTION items_counted_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO item_count_changes (bucket, result, flag, brand, category, n)
    SELECT item_count_bucket(listed_at), coalesce(result, ''), coalesce(flag, ''), coalesce(brand, ''),
           coalesce(category, ''), -count(*)
    FROM old_items GROUP BY 1, 2, 3, 4, 5;
    RETURN NULL;
END $$;

CREATE FUNCTION items_counted_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    TRUNCATE item_counts, item_count_changes;
    RETURN NULL;
END $$;

CREATE TRIGGER items_counted_insert AFTER INSERT ON items
    REFERENCING NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION items_counted_insert();
CREATE TRIGGER items_counted_update AFTER UPDATE ON items
    REFERENCING OLD TABLE AS old_items NEW TABLE AS new_items FOR EACH STATEMENT EXECUTE FUNCTION items_counted_update();
CREATE TRIGGER items_counted_delete AFTER DELETE ON items
    REFERENCING OLD TABLE AS old_items FOR EACH STATEMENT EXECUTE FUNCTION items_counted_delete();
CREATE TRIGGER items_counted_truncate AFTER TRUNCATE ON items
    FOR EACH STATEMENT EXECUTE FUNCTION items_counted_truncate();

-- Moves the pending changes into the rollup, both periods, in one statement; returns how many
-- rollup rows it changed. One folder at a time (others return 0 at once). Rows a fold brings
-- to zero are kept: the same combination usually comes back.
CREATE FUNCTION fold_item_count_changes() RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    changed bigint;
BEGIN
    IF NOT pg_try_advisory_xact_lock(7366291004217) THEN
        RETURN 0;
    END IF;
    WITH moved AS (DELETE FROM item_count_changes RETURNING *)
    INSERT INTO item_counts AS c (period, bucket, result, flag, brand, category, n)
    SELECT period, bucket, result, flag, brand, category, sum(n)
    FROM (SELECT 'day' AS period, bucket, result, flag, brand, category, n FROM moved
          UNION ALL
          SELECT 'month', date_trunc('month', bucket)::date, result, flag, brand, category, n FROM moved) AS f
    GROUP BY 1, 2, 3, 4, 5, 6
    HAVING sum(n) <> 0
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (period, bucket, result, flag, brand, category) DO UPDATE SET n = c.n + excluded.n;
    GET DIAGNOSTICS changed = ROW_COUNT;
    RETURN changed;
END $$;

-- The items already here.
INSERT INTO item_count_changes (bucket, result, flag, brand, category, n)
SELECT item_count_bucket(listed_at), coalesce(result, ''), coalesce(flag, ''), coalesce(brand, ''),
       coalesce(category, ''), count(*)
FROM items GROUP BY 1, 2, 3, 4, 5;
SELECT fold_item_count_changes();

-- Edge days of a time range are counted from items directly: this index answers that without
-- visiting the table.
DROP INDEX items_listed;
CREATE INDEX items_listed ON items (listed_at DESC, entrupy_id DESC) INCLUDE (result, flag, brand, category);
