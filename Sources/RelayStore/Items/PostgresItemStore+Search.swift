import Foundation
import PostgresNIO
public import RelayModel
import RelayDatabase

extension PostgresItemStore {
    /// A page of items matching `query`, newest first, and how many match in all. The page
    /// is a keyset read on (listed_at, entrupy_id), so a cursor stays exact while items arrive.
    /// An empty filter is folded away by the planner (each statement is planned with its
    /// values), leaving plain index conditions.
    public func search(_ query: ItemSearchQuery) async throws -> ItemSearchPage {
        if query.countOnly {
            return ItemSearchPage(items: [], totalCount: try await count(query), nextCursor: nil, countOnly: true)
        }
        async let total = pageTotal(query)
        var (items, positions) = try await keysetRows(query, after: query.cursor, limit: query.limit + 1)
        var next: PageCursor?
        if items.count > query.limit {
            items.removeLast()
            next = PageCursor(time: positions[items.count - 1], key: items[items.count - 1].entrupyID)
        }
        let (count, exact) = try await total
        return ItemSearchPage(items: items, totalCount: count, nextCursor: next, totalCountExact: exact)
    }

    /// Up to `limit` matching items after `cursor`, newest first, with each one's position (for
    /// a cursor): the search's page and the export's chunks.
    func keysetRows(_ query: ItemSearchQuery, after cursor: PageCursor?, limit: Int) async throws -> ([ItemSummary], [Int64]) {
        var values = Self.filterValues(query)
        values.set("cursor_time", cursor?.time)
        values.set("cursor_key", cursor?.key ?? "")
        values.set("limit", limit)
        let sql = Self.keysetSQL
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql.text, binds: values.bindings(for: sql)), logger: logger)
        var items: [ItemSummary] = []
        var positions: [Int64] = []
        for try await r in rows.decode((String, String?, String?, Bool, String, String?, String?, String?, Date?, Date, Date, Int64).self) {
            items.append(ItemSummary(row: (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8, r.9, r.10)))
            positions.append(r.11)
        }
        return (items, positions)
    }

    /// `keysetRows`' statement (the same text every time: numbered once).
    static let keysetSQL = NamedSQL("""
        SELECT \(ItemSummary.selectList), (extract(epoch FROM listed_at) * 1000000)::bigint FROM items
        WHERE \(filterSQL)
          AND (:cursor_time::bigint IS NULL
               OR (listed_at, entrupy_id) < ('epoch'::timestamptz + :cursor_time::bigint * interval '1 microsecond', :cursor_key::text))
        ORDER BY listed_at DESC, entrupy_id DESC
        LIMIT :limit
        """)

    /// The filter conditions, their parameters set by `filterValues`. Usernames and
    /// customer item IDs match by prefix; one prefix (the usual case) is a plain LIKE, which the
    /// planner (each statement is planned with its values) turns into a range on the
    /// text_pattern_ops indexes of migration 0014.
    static let filterSQL = rolledUpFilterSQL + """

          AND (cardinality(:usernames::text[]) = 0
               OR (cardinality(:usernames::text[]) = 1 AND username LIKE (:usernames::text[])[1])
               OR (cardinality(:usernames::text[]) > 1 AND username LIKE ANY(:usernames::text[])))
          AND (cardinality(:customer_item_ids::text[]) = 0
               OR (cardinality(:customer_item_ids::text[]) = 1 AND customer_item_id LIKE (:customer_item_ids::text[])[1])
               OR (cardinality(:customer_item_ids::text[]) > 1 AND customer_item_id LIKE ANY(:customer_item_ids::text[])))
          AND (cardinality(:unique_user_ids::text[]) = 0
               OR username IN (SELECT username FROM sdk_users WHERE unique_user_id = ANY(:unique_user_ids::text[])))
          AND (:since::timestamptz IS NULL OR listed_at >= :since::timestamptz)
          AND (:until::timestamptz IS NULL OR listed_at < :until::timestamptz)
        """

    /// `LIKE` pattern for "starts with `text`": its own `%`, `_` and `\\` match literally.
    static func prefixPattern(_ text: String) -> String {
        var pattern = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        return pattern + "%"
    }

    /// The filters the count rollup (`item_counts`, migration 0006) is keyed by.
    static let rolledUpFilterSQL = """
        (cardinality(:results::text[]) = 0 OR result = ANY(:results::text[]))
          AND (cardinality(:flags::text[]) = 0 OR flag = ANY(:flags::text[]))
          AND (cardinality(:brands::text[]) = 0 OR brand = ANY(:brands::text[]))
          AND (cardinality(:categories::text[]) = 0 OR category = ANY(:categories::text[]))
        """

    /// The values of `filterSQL`'s parameters (a statement that uses only `rolledUpFilterSQL`
    /// binds only those it names).
    static func filterValues(_ query: ItemSearchQuery) -> NamedBindings {
        var values = NamedBindings()
        values.set("results", query.results)
        values.set("flags", query.flags)
        values.set("brands", query.brands)
        values.set("categories", query.categories)
        values.set("usernames", query.usernames.map(prefixPattern))
        values.set("customer_item_ids", query.customerItemIDs.map(prefixPattern))
        values.set("unique_user_ids", query.uniqueUserIDs)
        values.set("since", query.since)
        values.set("until", query.until)
        return values
    }
}
