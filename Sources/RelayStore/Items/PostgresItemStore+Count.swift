import Foundation
import PostgresNIO
public import RelayModel
import RelayDatabase

extension PostgresItemStore {
    /// How many items match `query`, exactly. Filters by result, flag, brand, category and time
    /// are summed from the count rollup (migration 0006) in one statement, whatever the number of
    /// matches; a filter by username, customer item ID or SDK user counts the matching rows.
    public func count(_ query: ItemSearchQuery) async throws -> Int {
        if Self.isRolledUp(query) { return try await rolledUpCount(query) }
        return try await directCount(query, upTo: nil)
    }

    /// A page's `total_count` and whether it is exact: from the rollup when the filters allow,
    /// otherwise counted up to `pageCountCap`, beyond which it says so instead of counting on.
    func pageTotal(_ query: ItemSearchQuery) async throws -> (count: Int, exact: Bool) {
        if Self.isRolledUp(query) { return (try await rolledUpCount(query), true) }
        let counted = try await directCount(query, upTo: Self.pageCountCap)
        return (min(counted, Self.pageCountCap), counted <= Self.pageCountCap)
    }

    /// Where a page's count cannot come from the rollup, it is exact up to this many matches:
    /// one username's items are few, but one API user can own them all.
    public static let pageCountCap = 10_000

    /// Moves pending count changes into the rollup; returns how many rollup rows changed.
    /// Counts are exact without it; it keeps them cheap. Safe to run from any number of workers.
    public func foldCountChanges() async throws -> Int {
        let rows = try await client.query("SELECT fold_item_count_changes()", logger: logger)
        for try await changed in rows.decode(Int.self) { return changed }
        return 0
    }

    static func isRolledUp(_ query: ItemSearchQuery) -> Bool {
        query.usernames.isEmpty && query.customerItemIDs.isEmpty && query.uniqueUserIDs.isEmpty
    }

    private func directCount(_ query: ItemSearchQuery, upTo cap: Int?) async throws -> Int {
        var sql = "SELECT count(*) FROM items WHERE " + Self.filterSQL
        if let cap { sql = "SELECT count(*) FROM (SELECT 1 FROM items WHERE \(Self.filterSQL) LIMIT \(cap + 1)) AS capped" }
        return try await single(sql, Self.filterValues(query))
    }

    /// Month rows, day rows and pending changes for the whole days of the range, and the items
    /// themselves for the parts of a day at its ends (`ItemCountPlan`).
    private func rolledUpCount(_ query: ItemSearchQuery) async throws -> Int {
        let plan = ItemCountPlan(since: query.since, until: query.until)
        var values = Self.filterValues(query)
        var spans = 0
        // Each span's ends are parameters of their own, named by the span's place in the statement.
        func bucketCondition(_ span: ItemCountPlan.Span) -> String {
            spans += 1
            var conditions = ["true"]
            if let from = span.from { values.set("span\(spans)_from", ItemCountPlan.bucketText(from)); conditions.append("bucket >= :span\(spans)_from::date") }
            if let to = span.to { values.set("span\(spans)_to", ItemCountPlan.bucketText(to)); conditions.append("bucket < :span\(spans)_to::date") }
            return "(" + conditions.joined(separator: " AND ") + ")"
        }
        func listedCondition(_ span: ItemCountPlan.Span) -> String {
            spans += 1
            var conditions = ["true"]
            if let from = span.from { values.set("span\(spans)_from", from); conditions.append("listed_at >= :span\(spans)_from::timestamptz") }
            if let to = span.to { values.set("span\(spans)_to", to); conditions.append("listed_at < :span\(spans)_to::timestamptz") }
            return "(" + conditions.joined(separator: " AND ") + ")"
        }
        var terms: [String] = []
        if let months = plan.months {
            terms.append("""
                (SELECT coalesce(sum(n), 0) FROM item_counts
                 WHERE period = 'month' AND \(bucketCondition(months)) AND \(Self.rolledUpFilterSQL))
                """)
        }
        if !plan.days.isEmpty {
            terms.append("""
                (SELECT coalesce(sum(n), 0) FROM item_counts
                 WHERE period = 'day' AND (\(plan.days.map(bucketCondition).joined(separator: " OR "))) AND \(Self.rolledUpFilterSQL))
                """)
        }
        if let rolledUp = plan.rolledUp {
            terms.append("""
                (SELECT coalesce(sum(n), 0) FROM item_count_changes WHERE \(bucketCondition(rolledUp)) AND \(Self.rolledUpFilterSQL))
                """)
        }
        // The parts of a day at the range's ends, counted from the items (`false` when none).
        let direct = plan.direct.isEmpty ? "false" : plan.direct.map(listedCondition).joined(separator: " OR ")
        terms.append("(SELECT count(*) FROM items WHERE (\(direct)) AND \(Self.filterSQL))")
        return try await single("SELECT (" + terms.joined(separator: " + ") + ")::bigint", values)
    }

    private func single(_ text: String, _ values: NamedBindings) async throws -> Int {
        let sql = NamedSQL(text)
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql.text, binds: values.bindings(for: sql)), logger: logger)
        for try await count in rows.decode(Int.self) { return count }
        return 0
    }
}
