import Foundation
import Logging
import RelayModel
import RelayQueue
import RelayRules
import RelayWorker
import Testing

/// The pipeline's decisions on in-memory ports (issue 28): what it diffs, plans and commits,
/// and what it does when it loses a race, without PostgreSQL or the simulator. The PostgreSQL
/// store keeps its own integration tests (PostgresReconcileStoreTests, ReconcileStatementTests).
@Suite("Reconcile pipeline decisions")
struct ReconcilePipelineTests {
    static let logger = Logger(label: "pipeline-test")

    /// A rules file that sends a callback on result.final, in a temporary file as ENTRUPY_RELAY_RULES_FILE would be.
    static func rules(_ yaml: String = """
        rules:
          - name: final
            when: {transition: [result.final]}
            notify:
              - webhook: {url: "https://partner.example/hook", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
        """) throws -> RulesStore {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try RulesStore(path: path, parser: RuleSetParser(secret: { _ in nil }))
    }

    static func pipeline(_ source: MemoryItemSource, _ store: MemoryReconcileStore, rules: RulesStore?) -> ReconcilePipeline {
        ReconcilePipeline(api: source, store: store, rules: rules, logger: logger)
    }

    /// A reconcile job commits under its run's follow-up lease, handed over explicitly from the
    /// job's context, so the deliveries it plans go to this worker; a caller outside a run
    /// commits under none.
    @Test func aReconcileJobCommitsUnderItsRunsFollowUpLease() async throws {
        let item = EntrupyItem(entrupyID: "E1", result: "authentic", resultFinal: true)
        let store = MemoryReconcileStore()
        let pipeline = Self.pipeline(MemoryItemSource([item]), store, rules: try Self.rules())
        let run = FollowUpJobs(lease: JobLease(worker: "w1", duration: .seconds(30)), runnableKinds: [DeliverJob.kind])
        let context = JobContext(id: 1, attempt: 1, maxAttempts: 3, followUps: run, logger: Self.logger)
        let result = try await ReconcileItemHandler(pipeline: pipeline).run(ReconcileItemJob(entrupyID: "E1", source: .sweep), context: context)
        #expect(result.outcome == .completed)
        try await pipeline.reconcile(.entrupyID("E1"), source: .manual, followUps: nil)
        let leases = store.state.withLock { $0.followUps }
        #expect(leases.count == 2)
        #expect(leases.first.flatMap { $0 } === run, "the job's commit carries its run's lease")
        #expect(leases.last.flatMap { $0 } == nil, "outside a run, none")
    }

    @Test func aNewItemIsStoredWithItsTransitionsAndTheDeliveriesTheyCause() async throws {
        let item = EntrupyItem(entrupyID: "E1", customerItemID: "sku-1", result: "authentic", resultFinal: true)
        let store = MemoryReconcileStore()
        let result = try await Self.pipeline(MemoryItemSource([item]), store, rules: try Self.rules())
            .reconcile(.entrupyID("E1"), source: .sweep, followUps: nil)
        #expect(result.transitions == TransitionDiffer.diff(from: nil, to: item.snapshot))
        #expect(result.transitions.map(\.kind).contains(.resultFinal))
        let change = try #require(store.state.withLock { $0.accepted.first })
        #expect(change.basedOn == nil && change.observedAt == store.now && change.source == .sweep)
        #expect(change.deliveries.count == 1 && change.deliveries.first?.rule == "final")
        #expect(change.deliveries.first.map { change.transitions[$0.transitionIndex].kind } == .resultFinal)
        #expect(store.state.withLock { $0.items["E1"]?.snapshot } == item.snapshot)
    }

    @Test func anAnswerOlderThanTheStoredOneChangesNothing() async throws {
        let store = MemoryReconcileStore()
        let newer = StoredItemState(snapshot: ItemSnapshot(result: "authentic", resultFinal: true, flag: "none"),
                                    fetchedAt: store.now.addingTimeInterval(10))
        store.state.withLock { $0.items["E1"] = newer }
        let older = EntrupyItem(entrupyID: "E1", result: "unknown", resultFinal: false)
        let result = try await Self.pipeline(MemoryItemSource([older]), store, rules: try Self.rules())
            .reconcile(.entrupyID("E1"), source: .webhook(eventID: 7), followUps: nil)
        #expect(result.stale && result.transitions.isEmpty)
        #expect(store.state.withLock { $0.items["E1"] } == newer, "the newer state stays")
        #expect(store.state.withLock { $0.accepted.first?.deliveries.isEmpty } == true)
    }

    /// Another worker stores the same answer between this one's read and its commit: the
    /// commit is refused, the pipeline diffs again against what was stored, and the result.final
    /// the other worker recorded is not recorded (nor sent) a second time.
    @Test func losingTheRaceDiffsAgainstTheWinnersState() async throws {
        let store = MemoryReconcileStore()
        let pending = StoredItemState(snapshot: ItemSnapshot(result: nil, resultFinal: false, flag: "none"),
                                      fetchedAt: store.now.addingTimeInterval(-60))
        let item = EntrupyItem(entrupyID: "E1", result: "authentic", resultFinal: true)
        let winner = StoredItemState(snapshot: item.snapshot, fetchedAt: store.now.addingTimeInterval(-1))
        store.state.withLock { state in
            state.items["E1"] = pending
            state.interlopers = [winner]
        }
        let result = try await Self.pipeline(MemoryItemSource([item]), store, rules: try Self.rules())
            .reconcile(.entrupyID("E1"), source: .sweep, followUps: nil)
        #expect(store.state.withLock { $0.refused } == 1)
        #expect(result.transitions.isEmpty && !result.stale)
        #expect(store.state.withLock { $0.accepted.map(\.deliveries.count) } == [0])
    }

    @Test func endlessContentionIsReportedNotLooped() async throws {
        let store = MemoryReconcileStore()
        let item = EntrupyItem(entrupyID: "E1", result: "authentic", resultFinal: true)
        store.state.withLock { state in
            state.interlopers = (0..<20).map { n in
                StoredItemState(snapshot: ItemSnapshot(result: "unknown", resultFinal: n % 2 == 0, flag: "none"),
                                fetchedAt: store.now.addingTimeInterval(Double(-100 + n)))
            }
        }
        await #expect(throws: ReconcileContention.self) {
            try await Self.pipeline(MemoryItemSource([item]), store, rules: nil).reconcile(.entrupyID("E1"), source: .sweep, followUps: nil)
        }
        #expect(store.state.withLock { $0.refused } == 8)
    }

    @Test func aBackfillRecordsTheTimelineButNotifiesNobody() async throws {
        let item = EntrupyItem(entrupyID: "E1", result: "authentic", resultFinal: true)
        let store = MemoryReconcileStore()
        let result = try await Self.pipeline(MemoryItemSource([item]), store, rules: try Self.rules())
            .reconcile(.entrupyID("E1"), source: .backfill, followUps: nil)
        #expect(!result.transitions.isEmpty)
        #expect(store.state.withLock { $0.accepted.first?.deliveries } == [])
    }

    /// The SDK users lookup costs a query: it runs only when a rule will send something.
    @Test func theSubmittersOwnIDIsLookedUpOnlyWhenARuleFires() async throws {
        let store = MemoryReconcileStore()
        store.state.withLock { $0.uniqueUserIDs["Org-ann"] = "user-0001" }
        let quiet = EntrupyItem(entrupyID: "E1", result: nil, resultFinal: false, username: "Org-ann")
        _ = try await Self.pipeline(MemoryItemSource([quiet]), store, rules: try Self.rules()).reconcile(.entrupyID("E1"), source: .sweep, followUps: nil)
        #expect(store.state.withLock { $0.lookups } == 0)

        let final = EntrupyItem(entrupyID: "E2", result: "authentic", resultFinal: true, username: "Org-ann")
        _ = try await Self.pipeline(MemoryItemSource([final]), store, rules: try Self.rules()).reconcile(.entrupyID("E2"), source: .sweep, followUps: nil)
        #expect(store.state.withLock { $0.lookups } == 1)
        let delivery = try #require(store.state.withLock { $0.accepted.last?.deliveries.first })
        guard case .webhook(let callback) = delivery.payload else { Issue.record("not a webhook"); return }
        #expect(callback.body.contains("user-0001"), "\(callback.body)")
    }

    /// Issue 27, 2: decided on the item as stored (U+0000 made U+FFFD), so the payload is one
    /// PostgreSQL accepts; the store still gets the fetched item to note what storing changed.
    @Test func aNULIsDiffedAndPlannedAsStoredAndNotedFromTheFetchedItem() async throws {
        let fetched = EntrupyItem(entrupyID: "E1", result: "authentic", resultFinal: true, brand: "ni\u{0}ke")
        let store = MemoryReconcileStore()
        _ = try await Self.pipeline(MemoryItemSource([fetched]), store, rules: try Self.rules()).reconcile(.entrupyID("E1"), source: .sweep, followUps: nil)
        let change = try #require(store.state.withLock { $0.accepted.first })
        #expect(change.item.brand == "ni\u{0}ke", "the fetched item goes to the store")
        guard case .webhook(let callback) = change.deliveries.first?.payload else { Issue.record("no callback planned"); return }
        #expect(callback.body.contains("ni\u{FFFD}ke") && !callback.body.contains("\\u0000"), "\(callback.body)")
    }
}
