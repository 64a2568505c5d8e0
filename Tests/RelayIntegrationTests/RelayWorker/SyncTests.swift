import Foundation
import Logging
import RelayModel
import RelayStore
import Testing

/// Re-verification by search: what webhooks lose, the sync finds.
@Suite("Sync by search", .timeLimit(.minutes(3)))
struct SyncTests {
    @Test func aLostFlagOnAFinalItemAndAnUnseenItemAreFoundBySync() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "2"]) { stack async throws in
            let sim = stack.simulator
            let known = try await sim.createItem("sku-sync-known", result: "authentic", final: true)
            #expect(try await stack.waitFor(known, result: "authentic"))
            #expect(try await stack.waitForIdleQueue())
            // Entrupy raises a flag on the final item, and authenticates a new item; both webhooks are lost.
            try await sim.setFlag(known, "flagged", webhook: false)
            let unseen = try await sim.createItem("sku-sync-unseen", result: "unknown", final: true, webhook: false)
            // The old sweep never looked at a final, unflagged item; the sync does.
            #expect(try await stack.waitFor(known, flag: "flagged", timeout: .seconds(30)))
            #expect(try await stack.waitFor(unseen, result: "unknown", timeout: .seconds(30)))
            #expect(try await stack.count("""
                SELECT count(*) FROM item_events WHERE entrupy_id = '\(known)' AND kind = 'flag.raised' AND source = 'sync'
                """) == 1)
            #expect(try await stack.timeline(unseen) == ["item.created", "result.final"])
            #expect(try await stack.count("SELECT count(*) FROM item_events WHERE entrupy_id = '\(unseen)' AND source <> 'sync'") == 0)
            // The status is shared state: the last complete pass with what it checked and found.
            #expect(try await eventually(timeout: .seconds(20)) {
                try await stack.count("""
                    SELECT count(*) FROM sync_state WHERE last_finished_at IS NOT NULL AND last_items_checked >= 2 AND pass_started_at IS NULL
                    """) == 1
            })
            // Later passes find nothing new to write: unchanged items are compared, not re-applied.
            let fetches = try await stack.count("SELECT count(*) FROM reconciliations")
            #expect(try await eventually(timeout: .seconds(20)) {
                try await stack.count("SELECT count(*) FROM sync_state WHERE last_finished_at > now() - interval '1 second' AND last_changes_found = 0") == 1
            })
            #expect(try await stack.count("SELECT count(*) FROM reconciliations") == fetches)
            #expect(try await stack.count("SELECT count(*) FROM (SELECT entrupy_id, kind FROM item_events GROUP BY 1, 2 HAVING count(*) > 1) AS twice") == 0)
        }
    }

    @Test func aPassResumesFromItsCheckpointAndOnlyOneReplicaHoldsIt() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresSyncStore(client: client, logger: TestDatabase.logger)
            let tiers = try SyncTiers("1h@0,1d@1h,all@1d")
            let first = try #require(try await store.resumeOrStart(tiers: tiers, lookback: .seconds(86_400)))
            #expect(first.cursor == nil && first.pages == 0 && first.tier == "all", "the first pass walks the whole window")
            #expect(abs(first.windowEnd.timeIntervalSince(first.windowStart) - 86_400) < 1)
            let cursor = JSONValue.array([.string("1700000000.5"), .string("SIM-42")])
            try await store.checkpoint(cursor: cursor, items: 25, changes: 2)
            // A replica that takes over (after a restart, say) continues from the saved page, same window.
            let resumed = try #require(try await store.resumeOrStart(tiers: tiers, lookback: .seconds(60)))
            #expect(resumed.cursor == cursor && resumed.pages == 1 && resumed.itemsChecked == 25 && resumed.changesFound == 2)
            #expect(resumed.windowStart == first.windowStart && resumed.startedAt == first.startedAt)
            try await store.finish(covering: tiers.covered(by: tiers.tiers[2]))
            let status = try await store.status()
            #expect(status.current == nil && status.lastItemsChecked == 25 && status.lastChangesFound == 2)
            #expect(Set(status.tiersCompleted.keys) == ["1h", "1d", "all"])
            #expect(abs((status.tiersCompleted["all"] ?? .distantPast).timeIntervalSince(first.startedAt)) < 0.01)
            #expect((status.lastAgeSeconds ?? -1) >= 0 && (status.lastAgeSeconds ?? 99) < 5)
            // After a complete pass a new one starts from the top, over the narrowest tier: only it is due.
            let next = try #require(try await store.resumeOrStart(tiers: tiers, lookback: .seconds(86_400)))
            #expect(next.cursor == nil && next.pages == 0 && next.startedAt > first.startedAt && next.tier == "1h")
            #expect(abs(next.windowEnd.timeIntervalSince(next.windowStart) - 3_600) < 1)
            try await store.finish(covering: ["1h"])
            // With every tier completed within its interval, no pass is due.
            #expect(try await store.resumeOrStart(tiers: try SyncTiers("1h@1h,all@1d"), lookback: .seconds(86_400)) == nil)

            // While one holds the pass, another is turned away at once; afterwards it may take it.
            let (entered, enteredSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            async let holder: Int? = store.whileHoldingLock {
                enteredSignal.yield()
                for await _ in release { break }
                return 1
            }
            for await _ in entered { break }
            let other = PostgresSyncStore(client: client, logger: TestDatabase.logger)
            #expect(try await other.whileHoldingLock { 2 } == nil)
            releaseSignal.yield()
            #expect(try await holder == 1)
            #expect(try await other.whileHoldingLock { 2 } == 2)
        }
    }

    @Test func syncStatusAndRunFromTheCommandLine() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let id = try await stack.simulator.createItem("sku-sync-cli", result: "authentic", final: true, webhook: false)
            let env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": stack.simulator.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token, "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret,
            ])
            let before = try await CommandLineTests.run(["sync", "status"], env: env)
            #expect(before.status == 0 && before.stdout.contains("last complete pass: none yet"), "\(before.stderr)")
            let run = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(run.status == 0 && run.stdout.contains("1 items checked") && run.stdout.contains("1 changed"), "\(run.stdout) \(run.stderr)")
            #expect(try await stack.waitFor(id, result: "authentic", timeout: .seconds(1)))
            let after = try await CommandLineTests.run(["sync", "status", "--json"], env: env)
            let json = try JSONValue.parse(Array(after.stdout.utf8))
            #expect(json["last_items_checked"]?.int64Value == 1 && json["last_changes_found"]?.int64Value == 1 && json["running"]?.boolValue == false)
        }
    }

    /// A pass over the whole window takes many intervals: the recent window is walked again
    /// each interval meanwhile, so yesterday's lost webhook does not wait for 90 days of pages.
    @Test func aWidePassWalksTheRecentWindowAgainEachInterval() async throws {
        try await ReconcileStack.with { stack async throws in
            let sim = stack.simulator
            let (status, _) = try await sim.call(.POST, "/_sim/history", .object(["count": .number(200), "days": .number(2)]))
            #expect(status == 201)
            try await sim.configure(["latency_ms": .number(300)])
            let env = CommandLineTests.environment(stack.database, [
                "ENTRUPY_RELAY_ENTRUPY_API_URL": sim.baseURL, "ENTRUPY_RELAY_ENTRUPY_API_TOKEN": TestSimulator.token,
                "ENTRUPY_RELAY_ENTRUPY_WEBHOOK_SECRETS": WebhookFixture.secret, "ENTRUPY_RELAY_ENTRUPY_API_RATE": "1000",
                "ENTRUPY_RELAY_SYNC_TIERS": "1h@0,all@1d", "ENTRUPY_RELAY_SYNC_INTERVAL_SECONDS": "1", "ENTRUPY_RELAY_LOG_LEVEL": "notice",
            ])
            // The first pass ever walks the whole window: 8 pages of 300 ms or more each.
            let run = try await CommandLineTests.run(["sync", "run"], env: env)
            #expect(run.status == 0 && run.stdout.contains("200 items checked"), "\(run.stdout) \(run.stderr)")
            #expect(run.stderr.contains("walked the recent window again during a wider pass"), "\(run.stderr)")
            let status2 = try await CommandLineTests.run(["sync", "status", "--json"], env: env)
            let json = try JSONValue.parse(Array(status2.stdout.utf8))
            #expect(json["tiers_completed"]?.objectValue.map { Set($0.keys) } == ["1h", "all"], "\(status2.stdout)")
        }
    }
}
