import Foundation
import PostgresNIO
import Testing
import RelayModel
import RelayStore

/// The count rollup (migration 0006) against real PostgreSQL: whatever the writes (inserts,
/// changes of result, flag or submission time across days and months, deletes) and whether or
/// not a fold has run, a count equals the items counted one by one.
@Suite("Item counts", .timeLimit(.minutes(3)))
struct ItemCountTests {
    /// What a search filters by, as read back from the items.
    struct Row {
        let result: String?, flag: String, brand: String?, category: String?, listedAt: Date
    }

    @Test func countsEqualTheItemsThroughWritesAndFolds() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let repository = PostgresItemStore(client: client, logger: TestDatabase.logger)
            // 700 items over about 150 days (some on exact UTC midnights), some without brand or result.
            try await client.query("""
                INSERT INTO items (entrupy_id, customer_item_id, result, flag, brand, category, username, submitted_at, fetched_at, raw)
                SELECT 'count-' || n, 'sku-count-' || n,
                       (ARRAY['authentic', 'unknown', 'needs_review', NULL])[1 + n % 4],
                       (ARRAY['none', 'none', 'flagged', 'resolved'])[1 + (n / 3) % 4],
                       (ARRAY['nike', 'adidas', 'gucci', NULL, 'dior'])[1 + n % 5],
                       (ARRAY['sneakers', 'luxury', 'apparel'])[1 + n % 3], 'Org-user-' || (n % 9),
                       CASE WHEN n % 50 = 0 THEN date_trunc('day', timestamptz '2026-11-20 00:00Z' - n * interval '5 hours 7 minutes')
                            ELSE timestamptz '2026-11-20 00:00Z' - n * interval '5 hours 7 minutes' END,
                       now(), '{}'::jsonb
                FROM generate_series(0, 699) AS n
                """, logger: TestDatabase.logger)
            var random = SeededGenerator(seed: 20_261_121)
            try await Self.expectCountsMatch(repository, client, &random, "before any fold")
            #expect(try await repository.foldCountChanges() > 0)
            #expect(try await Self.count(client, "SELECT count(*) FROM item_count_changes") == 0)
            try await Self.expectCountsMatch(repository, client, &random, "after a fold")

            // Changes of every kind, some across day and month boundaries, then counts before and after folding.
            try await client.query("""
                UPDATE items SET result = 'authentic', flag = 'flagged' WHERE entrupy_id IN (SELECT 'count-' || n FROM generate_series(0, 699, 7) AS n)
                """, logger: TestDatabase.logger)
            try await client.query("""
                UPDATE items SET submitted_at = submitted_at - interval '40 days' WHERE entrupy_id IN (SELECT 'count-' || n FROM generate_series(3, 699, 11) AS n)
                """, logger: TestDatabase.logger)
            try await client.query("UPDATE items SET submitted_at = NULL WHERE entrupy_id IN ('count-5', 'count-6')", logger: TestDatabase.logger)
            try await client.query("UPDATE items SET fetched_at = now()", logger: TestDatabase.logger)
            try await client.query("DELETE FROM items WHERE entrupy_id IN (SELECT 'count-' || n FROM generate_series(1, 699, 13) AS n)", logger: TestDatabase.logger)
            try await Self.expectCountsMatch(repository, client, &random, "after writes, before folding them")
            _ = try await repository.foldCountChanges()
            try await Self.expectCountsMatch(repository, client, &random, "after writes, folded")

            // The rollup after folding is exactly the items grouped: no drift in either period.
            let drift = try await Self.count(client, """
                WITH expected AS \(Self.expectedRollup)
                SELECT count(*)::int FROM (
                  (SELECT period, bucket, result, flag, brand, category, n FROM item_counts WHERE n <> 0
                   EXCEPT SELECT * FROM expected)
                  UNION ALL
                  (SELECT * FROM expected EXCEPT SELECT period, bucket, result, flag, brand, category, n FROM item_counts)) AS d
                """)
            #expect(drift == 0)
        }
    }

    @Test func foldsRacingWritersLoseNothing() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let repository = PostgresItemStore(client: client, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for batch in 0..<25 {
                            try await client.query("""
                                INSERT INTO items (entrupy_id, result, brand, category, submitted_at, fetched_at, raw)
                                SELECT 'race-' || \(writer) || '-' || \(batch) || '-' || n, 'authentic', 'nike', 'sneakers',
                                       now() - n * interval '20 hours', now(), '{}'::jsonb
                                FROM generate_series(1, 8) AS n
                                """, logger: TestDatabase.logger)
                        }
                    }
                }
                for _ in 0..<3 {
                    group.addTask { for _ in 0..<30 { _ = try await repository.foldCountChanges() } }
                }
                try await group.waitForAll()
            }
            var all = ItemSearchQuery()
            #expect(try await repository.count(all) == 800)
            all.brands = ["nike"]
            all.since = Date().addingTimeInterval(-86_400 * 3)
            let recent = try await Self.count(client, "SELECT count(*) FROM items WHERE listed_at >= now() - interval '3 days'")
            #expect(try await repository.count(all) == recent)
            _ = try await repository.foldCountChanges()
            #expect(try await Self.count(client, "SELECT coalesce(sum(n), 0)::int FROM item_counts WHERE period = 'month'") == 800)
            #expect(try await Self.count(client, "SELECT coalesce(sum(n), 0)::int FROM item_counts WHERE period = 'day'") == 800)
        }
    }

    static let expectedRollup = """
        (SELECT 'day' AS period, item_count_bucket(listed_at) AS bucket, coalesce(result, '') AS result, flag,
                coalesce(brand, '') AS brand, coalesce(category, '') AS category, count(*) AS n FROM items GROUP BY 1, 2, 3, 4, 5, 6
         UNION ALL
         SELECT 'month', date_trunc('month', item_count_bucket(listed_at))::date, coalesce(result, ''), flag,
                coalesce(brand, ''), coalesce(category, ''), count(*) FROM items GROUP BY 1, 2, 3, 4, 5, 6)
        """

    /// 60 random searches (filters, and ranges with bounds at random instants, midnights, month
    /// starts or open) counted by the repository and, one item at a time, here.
    static func expectCountsMatch(_ repository: PostgresItemStore, _ client: PostgresClient,
                                  _ random: inout SeededGenerator, _ stage: String) async throws {
        var rows: [Row] = []
        let stream = try await client.query("SELECT result, flag, brand, category, listed_at FROM items", logger: TestDatabase.logger)
        for try await (result, flag, brand, category, listedAt) in stream.decode((String?, String, String?, String?, Date).self) {
            rows.append(Row(result: result, flag: flag, brand: brand, category: category, listedAt: listedAt))
        }
        let end = ISO8601DateFormatter().date(from: "2026-11-21T00:00:00Z")!
        for round in 0..<60 {
            var query = ItemSearchQuery()
            query.results = Self.some(["authentic", "unknown", "needs_review"], &random)
            query.flags = Self.some(["none", "flagged", "resolved"], &random)
            query.brands = Self.some(["nike", "adidas", "gucci", "dior"], &random)
            query.categories = Self.some(["sneakers", "luxury", "apparel"], &random)
            query.since = Self.bound(end.addingTimeInterval(-Double(random.next() % 200) * 86_400), &random)
            query.until = Self.bound(end.addingTimeInterval(-Double(random.next() % 120) * 86_400), &random)
            if let since = query.since, let until = query.until, until <= since { swap(&query.since, &query.until) }
            let expected = rows.filter { row in
                (query.results.isEmpty || query.results.contains(row.result ?? ""))
                    && (query.flags.isEmpty || query.flags.contains(row.flag))
                    && (query.brands.isEmpty || query.brands.contains(row.brand ?? ""))
                    && (query.categories.isEmpty || query.categories.contains(row.category ?? ""))
                    && (query.since.map { row.listedAt >= $0 } ?? true) && (query.until.map { row.listedAt < $0 } ?? true)
            }.count
            let counted = try await repository.count(query)
            #expect(counted == expected, "\(stage), round \(round): \(query)")
        }
    }

    /// An instant on the day `day`: none (open), its UTC midnight, its month's first midnight, or a random moment.
    static func bound(_ day: Date, _ random: inout SeededGenerator) -> Date? {
        switch random.next() % 5 {
        case 0: return nil
        case 1: return ItemCountPlan.calendar.startOfDay(for: day)
        case 2: return ItemCountPlan.calendar.dateInterval(of: .month, for: day)!.start
        default: return ItemCountPlan.calendar.startOfDay(for: day).addingTimeInterval(Double(random.next() % 86_400_000) / 1000)
        }
    }

    /// No values (no filter) half the time, otherwise one or two of them.
    static func some(_ values: [String], _ random: inout SeededGenerator) -> [String] {
        switch random.next() % 4 {
        case 0, 1: return []
        case 2: return [values[Int(random.next() % UInt64(values.count))]]
        default: return Array(values.shuffled(using: &random).prefix(2))
        }
    }

    static func count(_ client: PostgresClient, _ sql: String) async throws -> Int {
        let rows = try await client.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
        for try await value in rows.decode(Int.self) { return value }
        throw TestSetupError("no row for \(sql)")
    }
}
