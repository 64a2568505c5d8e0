import Foundation
import Testing
import RelayModel

/// Support's "refresh now" (API and command line): the item's fetch goes ahead of waiting work
/// and joins any fetch of it already queued, retrying, running, or under way for a webhook.
@Suite("Refresh now", .timeLimit(.minutes(3)))
struct ItemRefreshTests {
    @Test func refreshNowGoesFirstAndCoalescesWithTheFetchUnderWay() async throws {
        // No worker: the queue stays as the test leaves it.
        try await ReconcileStack.with(worker: false) { stack async throws in
            try await APIAccess.seedItems(stack.database, count: 1, prefix: "fresh")
            let id = "fresh-0"
            let support = try await APIAccess.token(stack.database, role: .support)
            let consumer = try await APIAccess.token(stack.database, role: .consumer)
            // Background work queued earlier, waiting its turn.
            try await TestDatabase.execute(stack.database, """
                INSERT INTO jobs (kind, args, unique_key, scheduled_at)
                SELECT 'reconcile_item', jsonb_build_object('entrupy_id', 'old-' || n, 'source', 'sweep'), 'reconcile:old-' || n,
                       now() - interval '10 minutes'
                FROM generate_series(1, 5) AS n
                """)
            func refresh() async throws -> (String?, Int?) {
                let answer = try await stack.relay.post("/v1/items/\(id)/refresh", token: support)
                #expect(answer.status == 202, "\(answer.body)")
                return (answer.json?["action"] as? String, answer.json?["job_id"] as? Int)
            }
            let (action, job) = try await refresh()
            let jobID = try #require(job)
            #expect(action == "queued")
            #expect(try await stack.count("""
                SELECT id FROM jobs WHERE state IN ('available', 'retryable') ORDER BY scheduled_at, id LIMIT 1
                """) == jobID, "the refresh is claimed before the waiting work")
            #expect(try await refresh() == ("moved_up", jobID))
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE unique_key = 'reconcile:\(id)'") == 1)

            // A fetch retrying later is made due now; one running is the fetch asked for.
            try await TestDatabase.execute(stack.database, "UPDATE jobs SET state = 'retryable', scheduled_at = now() + interval '1 hour' WHERE id = \(jobID)")
            #expect(try await refresh() == ("moved_up", jobID))
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE id = \(jobID) AND scheduled_at < now()") == 1)
            try await TestDatabase.execute(stack.database, """
                UPDATE jobs SET state = 'running', attempt = 1, leased_by = 'test', lease_expires_at = now() + interval '1 minute' WHERE id = \(jobID)
                """)
            #expect(try await refresh() == ("running", jobID))

            // A webhook's fetch holding the item's lease is the fetch: nothing is queued.
            try await TestDatabase.execute(stack.database, "DELETE FROM jobs WHERE id = \(jobID)")
            try await TestDatabase.execute(stack.database, """
                INSERT INTO item_fetch_leases (item_key, holder, expires_at) VALUES ('id:\(id)', gen_random_uuid(), now() + interval '1 minute')
                """)
            #expect(try await refresh() == ("fetching", nil))
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE unique_key = 'reconcile:\(id)'") == 0)
            try await TestDatabase.execute(stack.database, "DELETE FROM item_fetch_leases")

            // The command line does the same.
            let cli = try await CommandLineTests.run(["items", "refresh", "sku-fresh-0"], env: CommandLineTests.environment(stack.database))
            #expect(cli.status == 0 && cli.stdout.hasPrefix("\(id): queued:"), "\(cli.stdout) \(cli.stderr)")
            let again = try await CommandLineTests.run(["items", "refresh", id, "--json"], env: CommandLineTests.environment(stack.database))
            #expect(again.status == 0 && (try? JSONValue.parse(Array(again.stdout.utf8)))?["action"]?.stringValue == "moved_up",
                    "\(again.stdout) \(again.stderr)")

            #expect(try await stack.relay.post("/v1/items/\(id)/refresh", token: consumer).status == 403)
            #expect(try await stack.relay.post("/v1/items/nope/refresh", token: support).status == 404)
        }
    }
}
