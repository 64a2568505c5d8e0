import Foundation
import RelayModel
import Testing

/// Hints for one item cost as few fetches as correctness allows.
@Suite("Coalescing hints", .timeLimit(.minutes(3)))
struct CoalescingTests {
    static func hint(_ id: String, _ n: Int) -> WebhookFixture {
        WebhookFixture.entrupy(#"{"event":"session.completed","id":"hint-\#(n)-\#(id)","entrupy_id":"\#(id)"}"#)
    }

    @Test func hintsWaitingTogetherBecomeOneFetch() async throws {
        try await ReconcileStack.with(worker: false) { stack async throws in
            let id = try await stack.simulator.createItem("sku-coalesce", result: "authentic", final: true, webhook: false)
            for n in 0..<3 { #expect(try await stack.relay.post(Self.hint(id, n)).status == 200) }
            #expect(try await stack.count("SELECT count(*) FROM jobs WHERE kind = 'reconcile_webhook' AND state = 'available'") == 3)
            let worker = try RelayProcess(["worker"], database: stack.database, env: WorkerProcessTests.workerEnv(stack.simulator))
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") == 3 })
            #expect(try await stack.waitForIdleQueue())
            // One fetch reached the store (a fetch is recorded once, whatever it found).
            #expect(try await stack.count("SELECT count(*) FROM reconciliations WHERE entrupy_id = '\(id)'") == 1)
            #expect(try await stack.timeline(id) == ["item.created", "result.final"])
            #expect(await worker.stop() == 0)
        }
    }

    @Test func aHintDuringAFetchCausesExactlyOneMore() async throws {
        try await ReconcileStack.with { stack async throws in
            let sim = stack.simulator
            let id = try await sim.createItem("sku-during", result: "needs_review", webhook: false)
            // Every API answer takes 4 s, so the first fetch is surely under way while the others arrive.
            try await sim.configure(["latency_ms": .number(4000)])
            #expect(try await stack.relay.post(Self.hint(id, 0)).status == 200)
            #expect(try await eventually { try await stack.count("SELECT count(*) FROM jobs WHERE state = 'running'") == 1 })
            try await sim.setResult(id, "authentic", final: true, webhook: false)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for n in 1...3 { group.addTask { try await stack.relay.post(Self.hint(id, n)).status } }
                for try await status in group { #expect(status == 200) }
            }
            #expect(try await eventually(timeout: .seconds(30)) {
                try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") == 4
            })
            #expect(try await stack.waitForIdleQueue())
            // Exactly one fetch after the first (the simulator reads the item after its delay, so either may have seen the change).
            #expect(try await stack.count("SELECT count(*) FROM reconciliations WHERE entrupy_id = '\(id)'") == 2)
            #expect(try await stack.waitFor(id, result: "authentic", timeout: .seconds(1)))
            #expect(try await stack.timeline(id).filter { $0 == "result.final" }.count == 1)
        }
    }

    /// Six hints for one item sent at once to two replicas: the item's fetch is leased across
    /// processes, so the burst costs at most two fetches (without the lease: two per replica).
    @Test func aBurstAcrossTwoReplicasCostsAtMostTwoFetches() async throws {
        try await ReconcileStack.with { stack async throws in
            try await TestRelay.with(database: stack.database, env: ReconcileStack.fastEnv, simulator: stack.simulator) { second async throws in
                let sim = stack.simulator
                let id = try await sim.createItem("sku-two-replicas", result: "authentic", final: true, webhook: false)
                // Every answer takes a second: a hint to each replica at once, and four more while the fetch is under way.
                try await sim.configure(["latency_ms": .number(1000)])
                func burst(_ numbers: [Int]) async throws {
                    try await withThrowingTaskGroup(of: Int.self) { group in
                        for n in numbers {
                            let relay = n % 2 == 0 ? stack.relay : second
                            group.addTask { try await relay.post(Self.hint(id, n)).status }
                        }
                        for try await status in group { #expect(status == 200) }
                    }
                }
                try await burst([0, 1])
                try await Task.sleep(for: .milliseconds(300))
                try await burst([2, 3, 4, 5])
                #expect(try await eventually(timeout: .seconds(40)) {
                    try await stack.count("SELECT count(*) FROM webhook_events WHERE state = 'processed'") == 6
                })
                #expect(try await stack.waitForIdleQueue(timeout: .seconds(30)))
                let fetches = try await stack.count("SELECT count(*) FROM reconciliations WHERE entrupy_id = '\(id)'")
                #expect((1...2).contains(fetches), "\(fetches) fetches")
                #expect(try await stack.timeline(id) == ["item.created", "result.final"])
                #expect(try await stack.count("SELECT count(*) FROM item_fetch_leases") == 0, "every lease is released")
            }
        }
    }
}
