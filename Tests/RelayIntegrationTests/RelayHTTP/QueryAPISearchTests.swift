import Foundation
import Testing
import RelayModel

@Suite("Query API search", .timeLimit(.minutes(3)))
struct QueryAPISearchTests {
    @Test func filtersCombineAndCountsMatchTheDatabase() async throws {
        try await TestDatabase.with { db async throws in
            try await APIAccess.seedItems(db, count: 240)
            let token = try await APIAccess.token(db, role: .consumer)
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                let epoch = Int(Date().timeIntervalSince1970) - 3630
                let cases: [(String, String)] = [
                    ("", "true"),
                    ("brand=nike&brand=adidas&result=authentic", "brand IN ('nike', 'adidas') AND result = 'authentic'"),
                    ("flag=flagged&category=luxury", "flag = 'flagged' AND category = 'luxury'"),
                    ("username=Org-user-3", "username = 'Org-user-3'"),
                    // Customer item IDs and usernames match by prefix (issue 12); `_` and `%` are literal.
                    ("customer_item_id=sku-seed-17", "customer_item_id LIKE 'sku-seed-17%'"),
                    ("customer_item_id=sku-seed-2&customer_item_id=sku-seed-3", "customer_item_id LIKE 'sku-seed-2%' OR customer_item_id LIKE 'sku-seed-3%'"),
                    ("customer_item_id=sku_seed", "false"),
                    ("username=Org-user", "username LIKE 'Org-user%'"),
                    // Brand, category and result in any case, or as displayed.
                    ("brand=Nike&result=Unidentified", "brand = 'nike' AND result = 'unknown'"),
                    ("brand=Louis%20Vuitton&category=LUXURY&result=Under%20Review", "brand = 'louis_vuitton' AND category = 'luxury' AND result = 'needs_review'"),
                    // A date alone as `until` includes that day.
                    ("until=\(Self.day(0))", "listed_at < ((now() AT TIME ZONE 'UTC')::date + 1)::timestamp AT TIME ZONE 'UTC'"),
                    // Epoch seconds, compared with the same instant (not with a later now()).
                    ("since=\(epoch)", "listed_at >= to_timestamp(\(epoch))"),
                    ("result=needs_review&brand=louis_vuitton", "result = 'needs_review' AND brand = 'louis_vuitton'"),
                    ("last_days=1", "listed_at >= now() - interval '1 day'"),
                    ("since=\(Self.iso(-3600))&until=\(Self.iso(-1800))",
                     "listed_at >= now() - interval '3600 seconds' AND listed_at < now() - interval '1800 seconds'"),
                ]
                for (query, condition) in cases {
                    let expected = try await relay.count("SELECT count(*) FROM items WHERE \(condition)")
                    let counted = try await relay.get("/v1/items?\(query)&result_mode=count_only", token: token)
                    #expect(counted.status == 200 && counted.json?.keys.sorted() == ["total_count"], "\(query): \(counted.body)")
                    #expect(counted.json?["total_count"] as? Int == expected, "\(query)")
                    let page = try await relay.get("/v1/items?\(query)&limit=100", token: token)
                    #expect(page.status == 200)
                    let items = try #require(page.json?["items"] as? [[String: Any]])
                    #expect(page.json?["total_count"] as? Int == expected && page.json?["item_count"] as? Int == min(expected, 100), "\(query)")
                    #expect(items.count == min(expected, 100))
                }
                // Values are checked against what was asked, item by item.
                let nike = try #require(try await relay.get("/v1/items?brand=nike&flag=none&flag=resolved&limit=100", token: token).json?["items"] as? [[String: Any]])
                #expect(!nike.isEmpty && nike.allSatisfy { $0["brand"] as? String == "nike" && ["none", "resolved"].contains($0["flag"] as? String) })
                let dates = nike.compactMap { $0["listed_at"] as? String }
                #expect(dates == dates.sorted(by: >), "newest first")
            }
        }
    }

    /// Today's (UTC) date plus `days`, as `2026-11-20`.
    static func day(_ days: Int) -> String {
        String(ISODate.text(Date().addingTimeInterval(Double(days) * 86_400)).prefix(10))
    }

    @Test func cursorsWalkEveryItemOnceWhileNewOnesArrive() async throws {
        try await TestDatabase.with { db async throws in
            try await APIAccess.seedItems(db, count: 100)
            let token = try await APIAccess.token(db, role: .support)
            let expected = try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE brand = 'nike'")
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                var seen: [String] = []
                var cursor: String?
                var pages = 0
                repeat {
                    let path = "/v1/items?brand=nike&limit=7" + (cursor.map { "&cursor=\($0)" } ?? "")
                    let page = try await relay.get(path, token: token)
                    #expect(page.status == 200, "\(page.body)")
                    seen += (page.json?["items"] as? [[String: Any]] ?? []).compactMap { $0["entrupy_id"] as? String }
                    cursor = page.json?["next_cursor"] as? String
                    pages += 1
                    // Items arriving between pages (newer, and with the same submission time as the seed) change nothing.
                    if pages == 2 {
                        try await APIAccess.seedItems(db, count: 6, prefix: "late")
                        try await APIAccess.seedItems(db, count: 6, prefix: "late-old", newest: Date().addingTimeInterval(-86_400 * 30))
                    }
                } while cursor != nil && pages < 50
                // Every original item once; the newer arrivals are before the position and not shown; older
                // arrivals come after it and are (a page walk is a position, not a snapshot).
                #expect(Set(seen).count == seen.count, "no item twice: \(seen)")
                #expect(seen.filter { $0.hasPrefix("seed-") }.count == expected)
                #expect(!seen.contains { $0.hasPrefix("late-") && !$0.hasPrefix("late-old") })
                #expect(seen.filter { $0.hasPrefix("late-old-") }.count == 2)
                #expect(pages == (seen.count + 6) / 7)
            }
        }
    }

    @Test func badParametersAreNamed() async throws {
        try await TestDatabase.with { db async throws in
            let token = try await APIAccess.token(db, role: .admin)
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                let cases: [(String, String)] = [
                    ("/v1/items?limit=0", "parameter \"limit\": must be a whole number from 1 to 100"),
                    ("/v1/items?limit=101", "parameter \"limit\": must be a whole number from 1 to 100"),
                    ("/v1/items?flag=maybe", "parameter \"flag\": must be one of none, flagged, resolved, not \"maybe\""),
                    ("/v1/items?brnad=nike", "parameter \"brnad\": unknown parameter"),
                    ("/v1/items?since=yesterday", "parameter \"since\": must be an ISO 8601 date"),
                    ("/v1/items?since=2026-11-02&until=2026-11-01", "parameter \"until\": must be later than since"),
                    ("/v1/items?last_days=7&since=2026-11-01", "parameter \"last_days\": cannot be combined with since or until"),
                    ("/v1/items?cursor=garbage", "parameter \"cursor\": is not a cursor this server gave out"),
                    ("/v1/items?result_mode=all", "parameter \"result_mode\": must be one of items, count_only"),
                    ("/v1/items?limit=5&limit=6", "parameter \"limit\": may be given only once"),
                    ("/v1/items?brand=", "parameter \"brand\": must not be empty"),
                    ("/v1/deliveries?state=lost", "parameter \"state\": must be one of pending, failed, delivered, dead"),
                    ("/v1/events?state=lost", "parameter \"state\": must be one of queued"),
                    ("/v1/events?cursor=\(PageCursor(time: 5, key: "x").text)", "parameter \"cursor\": is not a cursor of this list"),
                ]
                for (path, message) in cases {
                    let response = try await relay.get(path, token: token)
                    #expect(response.status == 400, "\(path)")
                    #expect(response.message?.hasPrefix(message) == true, "\(path): \(response.message ?? response.body)")
                }
                let badID = try await relay.post("/v1/deliveries/abc/retry", token: token)
                #expect(badID.status == 400 && badID.message?.contains("\"id\"") == true)
            }
        }
    }

    static func iso(_ offset: TimeInterval) -> String {
        ISODate.text(Date().addingTimeInterval(offset))
    }
}
