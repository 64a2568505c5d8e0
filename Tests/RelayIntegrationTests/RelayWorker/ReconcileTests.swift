import Foundation
import RelayModel
import Testing

@Suite("Reconciling items through the simulator", .timeLimit(.minutes(3)))
struct ReconcileTests {
    @Test func everyTransitionLandsOnceInTheTimeline() async throws {
        try await ReconcileStack.with { stack async throws in
            let sim = stack.simulator
            let id = try await sim.createItem("sku-life")
            #expect(try await stack.waitFor(id, result: "needs_review"))
            try await sim.setResult(id, "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            try await sim.setFlag(id, "flagged")
            #expect(try await stack.waitFor(id, flag: "flagged"))
            try await sim.setFlag(id, "resolved")
            #expect(try await stack.waitFor(id, flag: "resolved"))
            try await sim.setFlag(id, "flagged")
            #expect(try await stack.waitFor(id, flag: "flagged"))
            try await sim.setFlag(id, "none")
            #expect(try await stack.waitFor(id, flag: "none"))
            try await sim.setResult(id, "unknown", final: true)
            #expect(try await stack.waitFor(id, result: "unknown"))
            #expect(try await stack.waitForIdleQueue())
            #expect(try await stack.timeline(id) == [
                "item.created", "result.changed", "result.final", "flag.raised", "flag.resolved", "flag.raised", "flag.cleared",
                "result.changed", "result.final",
            ])
            #expect(try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") == 7)
            #expect(try await stack.count("""
                SELECT count(*) FROM items WHERE entrupy_id = '\(id)' AND customer_item_id = 'sku-life' AND brand = 'nike'
                  AND category = 'sneakers' AND username = 'SimOrg-user' AND result_final AND raw ? 'status'
                """) == 1)
        }
    }

    @Test func duplicatedWebhooksAddNothing() async throws {
        try await ReconcileStack.with { stack async throws in
            try await stack.simulator.configure(["duplicate_webhooks": .number(2)])
            let id = try await stack.simulator.createItem("sku-dup", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            try await stack.simulator.setFlag(id, "flagged")
            #expect(try await stack.waitFor(id, flag: "flagged"))
            #expect(try await stack.waitForIdleQueue())
            // Simulator copies carry the same event ID: stored once each, counted as duplicates.
            #expect(try await eventually { try await stack.count("SELECT coalesce(sum(duplicates), 0)::int FROM webhook_events") == 4 })
            #expect(try await stack.count("SELECT count(*) FROM webhook_events") == 2)
            #expect(try await stack.timeline(id) == ["item.created", "result.final", "flag.raised"])
        }
    }

    @Test func staleAndRepeatedHintsConvergeWithoutNewEntries() async throws {
        try await ReconcileStack.with { stack async throws in
            let id = try await stack.simulator.createItem("sku-order")
            try await stack.simulator.setResult(id, "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            #expect(try await stack.waitForIdleQueue())
            let before = try await stack.timeline(id)
            // An old hint arriving late (as if reordered), with its own event ID, and again by customer item ID.
            for (n, hint) in [#"{"event":"session.completed","id":"late-1","entrupy_id":"\#(id)"}"#,
                              #"{"event":"session.completed","id":"late-2","customer_item_id":"sku-order"}"#].enumerated() {
                let response = try await stack.relay.post(WebhookFixture.entrupy(hint))
                #expect(response.status == 200, "hint \(n)")
            }
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") == 4 })
            #expect(try await stack.timeline(id) == before)
            #expect(before == ["item.created", "result.changed", "result.final"] || before == ["item.created", "result.final"])
        }
    }

    @Test func aMissedWebhookIsHealedByTheSweep() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_SWEEP_INTERVAL_SECONDS": "1", "ENTRUPY_RELAY_SWEEP_AGE_SECONDS": "0"]) { stack async throws in
            let id = try await stack.simulator.createItem("sku-missed")
            #expect(try await stack.waitFor(id, result: "needs_review"))
            // The result changes but Entrupy's webhook never arrives.
            try await stack.simulator.setResult(id, "authentic", final: true, webhook: false)
            #expect(try await stack.waitFor(id, result: "authentic"))
            #expect(try await stack.timeline(id) == ["item.created", "result.changed", "result.final"])
            #expect(try await stack.count("SELECT count(*) FROM item_events WHERE entrupy_id = '\(id)' AND source = 'sweep'") == 2)
            // Settled items are no longer swept.
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM jobs WHERE kind = 'reconcile_item' AND state <> 'completed'") == 0 })
        }
    }

    @Test func rateLimitBurstsAreWaitedOutNotFailed() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_ENTRUPY_API_RATE": "200"], simulatorRate: 4) { stack async throws in
            // The items exist first; their hints then arrive together, so the worker (16 jobs at a time) asks
            // for all of them at once whatever the machine's load: more than the simulator's bucket of 4 holds.
            var ids: [String] = []
            for n in 0..<16 { ids.append(try await stack.simulator.createItem("sku-burst-\(n)", result: "authentic", final: true, webhook: false)) }
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (n, id) in ids.enumerated() {
                    group.addTask {
                        try await stack.relay.post(WebhookFixture.entrupy(#"{"event":"session.completed","id":"burst-\#(n)","entrupy_id":"\#(id)"}"#)).status
                    }
                }
                for try await status in group { #expect(status == 200) }
            }
            #expect(try await stack.waitForIdleQueue(timeout: .seconds(40)))
            #expect(try await stack.count("SELECT count(*) FROM items") == 16)
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE state = 'dead'") == 0)
            let limited = try await stack.simulator.stats()["rate_limited"]?.int64Value ?? 0
            #expect(limited > 0)
            // Snoozes for 429 do not spend attempts.
            #expect(try await stack.count("SELECT max(attempt) FROM jobs") <= 2)
        }
    }

    @Test func anItemThatNeverAppearsIsGivenUpOnAfterItsWindow() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_NOT_FOUND_WINDOW_SECONDS": "1"]) { stack async throws in
            let hint = WebhookFixture.entrupy(#"{"event":"session.completed","id":"ghost-1","entrupy_id":"DOES-NOT-EXIST"}"#)
            #expect(try await stack.relay.post(hint).status == 200)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM jobs WHERE state = 'dead'") == 1 })
            #expect(try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'failed' AND last_error LIKE '%404%'") == 1)
            // While inside the window the 404 waited (snoozed) instead of spending attempts.
            #expect(try await stack.count("SELECT attempt FROM jobs") == 1)
        }
    }

    /// Issue 10, defect 3: an item that becomes visible only after the relay gave up on its
    /// webhook is not lost: Entrupy's redelivery of the same event queues it again.
    @Test func aRedeliveredHintForAFailedEventQueuesItAgain() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_NOT_FOUND_WINDOW_SECONDS": "1"]) { stack async throws in
            let hint = WebhookFixture.entrupy(#"{"event":"session.completed","id":"late-1","customer_item_id":"sku-late"}"#)
            #expect(try await stack.relay.post(hint).status == 200)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'failed'") == 1 })
            let id = try await stack.simulator.createItem("sku-late", webhook: false)
            let again = try await stack.relay.post(hint)
            #expect(again.status == 200)
            #expect(try await stack.waitFor(id, result: "needs_review"))
            #expect(try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed' AND duplicates = 1") == 1)
            #expect(try await stack.count("SELECT count(*) FROM items WHERE customer_item_id = 'sku-late'") == 1)
        }
    }

    @Test func serverErrorsBackOffThenDieAndCanBeRedriven() async throws {
        try await ReconcileStack.with(env: ["ENTRUPY_RELAY_RECONCILE_MAX_ATTEMPTS": "3", "ENTRUPY_RELAY_JOB_BACKOFF_BASE_MS": "200"]) { stack async throws in
            try await stack.simulator.configure(["error_rate": .number(1)])
            let id = try await stack.simulator.createItem("sku-500", webhook: true)
            #expect(try await eventually(timeout: .seconds(20)) { try await stack.count("SELECT count(*) FROM jobs WHERE state = 'dead'") == 1 })
            #expect(try await stack.count("SELECT jsonb_array_length(errors) FROM jobs") == 3)
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE errors -> 0 ->> 'error' LIKE '%server error (500)%'") == 1)
            // Backoff grew: each retry was scheduled at least as far out as the one before (jitter included).
            #expect(try await stack.count("""
                SELECT ((errors -> 1 ->> 'retry_in_ms')::int >= (errors -> 0 ->> 'retry_in_ms')::int
                        AND (errors -> 0 ->> 'retry_in_ms')::int >= 100 AND errors -> 2 ->> 'retry_in_ms' IS NULL)::int FROM jobs
                """) == 1)
            try await stack.simulator.configure(["error_rate": .number(0)])
            let jobID = try await stack.count("SELECT id FROM jobs")
            let outcome = try await TestDatabase.withClient(stack.database) { client in
                try await PostgresJobQueueFactory.make(client).retry(id: Int64(jobID))
            }
            #expect(outcome == .scheduled)
            #expect(try await stack.waitFor(id, result: "needs_review"))
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM jobs WHERE state = 'completed'") == 1 })
        }
    }

    /// An item whose data holds U+0000 (PostgreSQL refuses it in text and jsonb) is stored
    /// with U+FFFD instead, and its timeline says so (issue 10, defect 11).
    @Test func anItemWithNULBytesIsStoredAndTheTimelineSaysSo() async throws {
        try await ReconcileStack.with { stack async throws in
            let id = try await stack.simulator.createItem("sku-nul", brand: "ni\u{0}ke", result: "authentic", final: true)
            #expect(try await stack.waitFor(id, result: "authentic"))
            #expect(try await stack.count("SELECT count(*) FROM items WHERE entrupy_id = '\(id)' AND brand = 'ni\u{FFFD}ke'") == 1)
            #expect(try await stack.count("""
                SELECT count(*) FROM reconciliations WHERE entrupy_id = '\(id)' AND note LIKE '%U+0000 (NUL)%stored as U+FFFD%'
                """) >= 1)
            #expect(try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") >= 1)
        }
    }

}
