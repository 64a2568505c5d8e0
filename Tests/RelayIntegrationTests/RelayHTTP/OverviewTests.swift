import Foundation
import Testing
import RelayModel
import RelayStore

/// Issue 12: the console's overview, its numbers checked against direct SQL.
@Suite("The overview", .timeLimit(.minutes(3)))
struct OverviewTests {
    @Test func numbersMatchTheDatabaseAndChartsAreServerDrawn() async throws {
        try await TestDatabase.with { db async throws in
            // 300 items over the last five hours and 200 more spread over 40 days (some outside the 30).
            do {
                try await APIAccess.seedItems(db, count: 300)
                try await APIAccess.seedItems(db, count: 200, prefix: "old", newest: Date().addingTimeInterval(-86_400 * 40 + 3_600 * 5))
            } catch {
                Issue.record("seed: \(String(reflecting: error))")
                throw error
            }
            try await TestDatabase.withClient(db) { client in
              do {
                try await client.query("UPDATE items SET submitted_at = now() - (random() * 40) * interval '1 day' WHERE entrupy_id LIKE 'old-%'",
                                       logger: TestDatabase.logger)
                try await client.query("""
                    INSERT INTO item_events (entrupy_id, kind, from_value, to_value, source, occurred_at, submitted_at)
                    SELECT entrupy_id, 'result.final', 'needs_review', result, 'webhook', submitted_at + (n % 50) * interval '1 minute', submitted_at
                    FROM (SELECT entrupy_id, result, submitted_at, row_number() OVER (ORDER BY entrupy_id) AS n FROM items) AS i
                    WHERE submitted_at > now() - interval '29 days' AND submitted_at + (n % 50) * interval '1 minute' < now()
                    """, logger: TestDatabase.logger)
                try await client.query("""
                    INSERT INTO deliveries (item_event_id, entrupy_id, rule, action_index, channel, target, payload, state)
                    SELECT e.id, e.entrupy_id, 'r', 0, 'webhook', 'https://x.example/', '{}',
                           (ARRAY['delivered', 'delivered', 'failed', 'dead', 'pending'])[1 + (e.id % 5)::int]
                    FROM item_events e LIMIT 50
                    """, logger: TestDatabase.logger)
              } catch {
                Issue.record("setup: \(String(reflecting: error))")
                throw error
              }
            }
            try await TestDatabase.withClient(db) { client in
                let overview = try await PostgresOverviewStore(client: client, logger: TestDatabase.logger).overview(days: 30)
                let total = try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE (listed_at AT TIME ZONE 'UTC')::date > (now() AT TIME ZONE 'UTC')::date - 30")
                let flagged = try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE flag = 'flagged' AND (listed_at AT TIME ZONE 'UTC')::date > (now() AT TIME ZONE 'UTC')::date - 30")
                #expect(overview.days.reduce(0) { $0 + $1.total } == total && total > 300 && total < 500)
                #expect(overview.days.reduce(0) { $0 + $1.flagged } == flagged)
                let unknownToday = try await TestDatabase.scalar(db, "SELECT count(*) FROM items WHERE result = 'unknown' AND (listed_at AT TIME ZONE 'UTC')::date = (now() AT TIME ZONE 'UTC')::date")
                #expect(overview.days.last?.byResult["unknown"] == unknownToday)
                #expect(overview.deliveries.values.reduce(0, +) == 50)
                #expect(overview.deliveries[.dead] == (try await TestDatabase.scalar(db, "SELECT count(*) FROM deliveries WHERE state = 'dead'")))
                let finals = try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events WHERE kind = 'result.final' AND occurred_at > now() - interval '30 days'")
                #expect(overview.latency.reduce(0) { $0 + $1.count } == finals)
                let median = try await TestDatabase.scalar(db, """
                    SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM e.occurred_at - i.submitted_at)))::int
                    FROM item_events e JOIN items i USING (entrupy_id)
                    WHERE e.kind = 'result.final' AND (e.occurred_at AT TIME ZONE 'UTC')::date = (now() AT TIME ZONE 'UTC')::date
                    """)
                #expect(overview.latency.last.map { Int($0.medianSeconds.rounded()) } == median)
            }
            let token = try await APIAccess.token(db, role: .support)
            let consumer = try await APIAccess.token(db, role: .consumer)
            try await TestRelay.with(database: db, worker: false) { relay async throws in
                let cookie = try await ConsoleSignIn.session(relay, token: token)
                let started = ContinuousClock.now
                let page = try await relay.request("/console/overview", headers: [("Cookie", cookie)])
                print("overview page: \(started.duration(to: .now)) for a few hundred items")
                #expect(page.status == 200)
                #expect(page.body.contains("<svg") && page.body.contains("Items per day by result") && !page.body.contains("<script"))
                #expect(page.body.contains("id=\"flag-rate\"") && page.body.contains("Submission to final result"))
                #expect(page.header("Content-Security-Policy")?.contains("script-src") == false)
                // Operators' numbers: a consumer may not see them.
                let limited = try await ConsoleSignIn.session(relay, token: consumer)
                #expect(try await relay.request("/console/overview", headers: [("Cookie", limited)]).status == 403)
            }
        }
    }
}
