import EntrupyAPI
import Foundation
import RelayModel
import RelayStore
import RelayWorker
import Testing

@Suite("Backfill and items show", .timeLimit(.minutes(3)))
struct BackfillAndItemsTests {
    @Test func backfillImportsEverythingOnceAndItemsShowPrintsIt() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let sim = stack.simulator
            for n in 0..<60 { _ = try await sim.createItem("sku-bf-\(n)", result: n % 2 == 0 ? "authentic" : "needs_review", final: n % 2 == 0, webhook: false) }
            let env = WorkerProcessTests.workerEnv(sim)
            let since = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3600))
            let first = try await CommandLineTests.run(["backfill", "--since", since], env: CommandLineTests.environment(stack.database, env))
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stdout == "backfill done: 60 items in 3 pages; 60 changed, 90 transitions recorded\n")
            let again = try await CommandLineTests.run(["backfill", "--since", String(since.prefix(10))], env: CommandLineTests.environment(stack.database, env))
            #expect(again.stdout == "backfill done: 60 items in 3 pages; 0 changed, 0 transitions recorded\n")
            #expect(try await stack.count("SELECT count(*) FROM items") == 60)

            let bad = try await CommandLineTests.run(["backfill", "--since", "last tuesday"], env: CommandLineTests.environment(stack.database, env))
            #expect(bad.status != 0 && bad.stderr.contains("--since is not an ISO 8601 date"))

            let shown = try await CommandLineTests.run(["items", "show", "sku-bf-0", "--json"], env: CommandLineTests.environment(stack.database))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            for key in ["entrupy_id", "customer_item_id", "result", "result_final", "flag", "brand", "category", "username", "updated_at", "transitions", "reconciliations", "webhooks", "deliveries", "timeline"] {
                #expect(json[key] != nil, "missing \(key)")
            }
            let transitions = try #require(json["transitions"] as? [[String: Any]])
            #expect(transitions.map { $0["kind"] as? String } == ["item.created", "result.final"])
            #expect(transitions.allSatisfy { $0["at"] != nil && $0.keys.contains("from") && $0.keys.contains("to") })
            // The merged timeline: the first backfill's fetch, the transitions it caused, the second's fetch.
            let timeline = try #require(json["timeline"] as? [[String: Any]])
            #expect(timeline.map { $0["kind"] as? String } == ["reconciled", "item.created", "result.final", "reconciled"])
            let fetches = try #require(json["reconciliations"] as? [[String: Any]])
            #expect(fetches.map { $0["outcome"] as? String } == ["created", "unchanged"] && fetches.allSatisfy { $0["source"] as? String == "backfill" })
            let missing = try await CommandLineTests.run(["items", "show", "nope"], env: CommandLineTests.environment(stack.database))
            #expect(missing.status == 1 && missing.stderr == "entrupy-relay: no item with Entrupy ID or customer item ID \"nope\"\n")
            // v2 documents the cursor as a string: passed back as it came, the pages are the same.
            try await sim.configure(["search_cursor_string": .bool(true)])
            let stringCursors = try await CommandLineTests.run(["backfill", "--since", since], env: CommandLineTests.environment(stack.database, env))
            #expect(stringCursors.stdout == "backfill done: 60 items in 3 pages; 0 changed, 0 transitions recorded\n", "\(stringCursors.stderr)")
            #expect(try await sim.stats()["api_requests_by_route"]?["POST /v1/search/authentications"]?.int64Value == 9)
        }
    }

    @Test func itemsShowListsTheWebhooksReceived() async throws {
        try await ReconcileStack.with { stack async throws in
            let id = try await stack.simulator.createItem("sku-show", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            let shown = try await CommandLineTests.run(["items", "show", id], env: CommandLineTests.environment(stack.database))
            #expect(shown.stdout.contains("result    authentic (final)"))
            #expect(shown.stdout.contains("item.created"))
            #expect(shown.stdout.contains("session.completed  processed"))
        }
    }
}
