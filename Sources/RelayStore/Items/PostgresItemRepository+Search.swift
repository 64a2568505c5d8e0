import Foundation
import PostgresNIO
import RelayCore

extension PostgresItemRepository {
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
        var binds = Self.filterBinds(query)
        binds.append(cursor?.time)
        binds.append(cursor?.key ?? "")
        binds.append(limit)
        let sql = """
            SELECT \(ItemSummary.selectList), (extract(epoch FROM listed_at) * 1000000)::bigint FROM items
            WHERE \(Self.filterSQL)
              AND ($10::bigint IS NULL OR (listed_at, entrupy_id) < ('epoch'::timestamptz + $10::bigint * interval '1 microsecond', $11::text))
            ORDER BY listed_at DESC, entrupy_id DESC
            LIMIT $12
            """
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        var items: [ItemSummary] = []
        var positions: [Int64] = []
        for try await r in rows.decode((String, String?, String?, Bool, String, String?, String?, String?, Date?, Date, Date, Int64).self) {
            items.append(ItemSummary(row: (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8, r.9, r.10)))
            positions.append(r.11)
        }
        return (items, positions)
    }

    /// The filter conditions, with placeholders $1 to $9 in `filterBinds` order. Usernames and
    /// customer item IDs match by prefix; one prefix (the usual case) is a plain LIKE, which the
    /// planner (each statement is planned with its values) turns into a range on the
    /// text_pattern_ops indexes of migration 0014.
    static let filterSQL = rolledUpFilterSQL + """

          AND (cardinality($5::text[]) = 0 OR (cardinality($5::text[]) = 1 AND username LIKE ($5::text[])[1])
               OR (cardinality($5::text[]) > 1 AND username LIKE ANY($5::text[])))
          AND (cardinality($6::text[]) = 0 OR (cardinality($6::text[]) = 1 AND customer_item_id LIKE ($6::text[])[1])
               OR (cardinality($6::text[]) > 1 AND customer_item_id LIKE ANY($6::text[])))
          AND (cardinality($7::text[]) = 0
               OR username IN (SELECT username FROM sdk_users WHERE unique_user_id = ANY($7::text[])))
          AND ($8::timestamptz IS NULL OR listed_at >= $8::timestamptz)
          AND ($9::timestamptz IS NULL OR listed_at < $9::timestamptz)
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

    /// The filters the count rollup (`item_counts`, migration 0006) is keyed by: $1 to $4.
    static let rolledUpFilterSQL = """
        (cardinality($1::text[]) = 0 OR result = ANY($1::text[]))
          AND (cardinality($2::text[]) = 0 OR flag = ANY($2::text[]))
          AND (cardinality($3::text[]) = 0 OR brand = ANY($3::text[]))
          AND (cardinality($4::text[]) = 0 OR category = ANY($4::text[]))
        """

    static func filterBinds(_ query: ItemSearchQuery) -> PostgresBindings {
        var binds = PostgresBindings()
        for values in [query.results, query.flags, query.brands, query.categories, query.usernames.map(prefixPattern),
                       query.customerItemIDs.map(prefixPattern), query.uniqueUserIDs] {
            binds.append(values)
        }
        binds.append(query.since)
        binds.append(query.until)
        return binds
    }
}
