import Foundation
import PostgresNIO
import RelayCore

extension PostgresItemRepository {
    /// One chunk of a search's whole result, newest first, after `cursor`, without counting:
    /// an export walks these, so no statement runs long and memory stays one chunk.
    public func exportChunk(_ query: ItemSearchQuery, after cursor: PageCursor?, limit: Int) async throws -> ([ItemSummary], PageCursor?) {
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
        var last: PageCursor?
        for try await r in rows.decode((String, String?, String?, Bool, String, String?, String?, String?, Date?, Date, Date, Int64).self) {
            items.append(ItemSummary(row: (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8, r.9, r.10)))
            last = PageCursor(time: r.11, key: r.0)
        }
        return (items, items.count < limit ? nil : last)
    }
}
