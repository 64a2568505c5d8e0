import Foundation
import Logging
import RelayModel
import RelayStore
import Testing

/// The reconcile commits in one statement, which writes everything or nothing: what a
/// refused commit leaves untouched, how concurrent writers of a stored item meet, and which
/// timeline row each delivery points at.
@Suite("Reconcile commit: one statement, all or nothing", .timeLimit(.minutes(2)))
struct ReconcileStatementTests {
    static let logger = Logger(label: "reconcile-statement-tests")

    static func change(_ item: EntrupyItem, basedOn: StoredItemState?, at observedAt: Date, source: ReconcileSource = .sweep,
                       deliveriesFor transitions: Range<Int>? = nil) -> ReconcileChange {
        let diffed = TransitionDiffer.diff(from: basedOn?.snapshot, to: item.snapshot)
        let deliveries = (transitions ?? 0..<diffed.count).map { index in
            PlannedDelivery(transitionIndex: index, entrupyID: item.entrupyID, rule: "r", actionIndex: index,
                            target: "https://example.com/hook", payload: .webhook(.init(url: "https://example.com/hook", headers: [], body: "{}")), signingKeyID: nil)
        }
        return ReconcileChange(item: item, observedAt: observedAt, source: source, basedOn: basedOn, transitions: diffed,
                               deliveries: deliveries)
    }

    /// Runs `body` with a fresh database and a reconcile store on it.
    static func withStore(_ body: @escaping @Sendable (DatabaseURL, PostgresReconcileStore) async throws -> Void) async throws {
        try await TestDatabase.withFresh { db, client async throws in
            try await body(db, PostgresReconcileStore(client: client, logger: logger))
        }
    }

    /// Stores `entrupyID` as a pending item and answers its stored state.
    static func storedPending(_ entrupyID: String, in store: PostgresReconcileStore) async throws -> StoredItemState {
        let pending = EntrupyItem(entrupyID: entrupyID, result: nil, resultFinal: false)
        #expect(try await store.commit(change(pending, basedOn: nil, at: try await store.clock(), deliveriesFor: 0..<0), followUps: nil) != nil)
        return try #require(try await store.state(of: entrupyID))
    }

    static func queuedEvent(_ db: DatabaseURL, about entrupyID: String) async throws -> Int64 {
        Int64(try await TestDatabase.scalar(db, """
            INSERT INTO webhook_events (dedup_key, entrupy_id, state, verified_by, body, body_sha256)
            VALUES ('id:\(entrupyID)', '\(entrupyID)', 'queued', 'entrupy-signature', '\\x7b7d', 'test') RETURNING id
            """))
    }

    @Test func aRefusedCommitLeavesTheEventQueuedAndInsertsNoDelivery() async throws {
        try await Self.withStore { db, store in
            let first = try await Self.storedPending("ENT-ONE-1", in: store)
            let authentic = EntrupyItem(entrupyID: "ENT-ONE-1", result: "authentic", resultFinal: true)
            #expect(try await store.commit(Self.change(authentic, basedOn: first, at: try await store.clock(), deliveriesFor: 0..<0), followUps: nil) != nil)
            let events = try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events")

            // Diffed against the first state, with a webhook event to mark and a delivery to plan.
            let event = try await Self.queuedEvent(db, about: "ENT-ONE-1")
            let flagged = EntrupyItem(entrupyID: "ENT-ONE-1", result: "authentic", resultFinal: true, flag: "flagged")
            let refused = Self.change(flagged, basedOn: first, at: try await store.clock(), source: .webhook(eventID: event))
            #expect(!refused.deliveries.isEmpty)
            #expect(try await store.commit(refused, followUps: nil) == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events") == events)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations") == 2)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM deliveries") == 0)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE kind = 'deliver'") == 0)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM webhook_events WHERE id = \(event) AND state = 'queued'") == 1)

            // Diffed again against what is stored, it lands whole.
            let current = try await store.state(of: "ENT-ONE-1")
            let landed = try #require(try await store.commit(Self.change(flagged, basedOn: current, at: try await store.clock(),
                                                                         source: .webhook(eventID: event)), followUps: nil))
            #expect(landed.transitions.map(\.kind) == [.flagRaised])
            #expect(landed.deliveries == 1)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE kind = 'deliver' AND state = 'available'") == 1)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM webhook_events WHERE id = \(event) AND state = 'processed'") == 1)
        }
    }

    /// The row lock the upsert takes: the others wait for the first writer to commit, then
    /// find the row no longer as they diffed it.
    @Test func eightWorkersChangingAStoredItemFromTheSameStateRecordTheChangeOnce() async throws {
        try await Self.withStore { db, store in
            let basis = try await Self.storedPending("ENT-ONE-2", in: store)
            let eventsBefore = try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events")
            let authentic = EntrupyItem(entrupyID: "ENT-ONE-2", result: "authentic", resultFinal: true)
            let now = try await store.clock()
            let results = try await withThrowingTaskGroup(of: ApplyResult?.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await store.commit(Self.change(authentic, basedOn: basis, at: now), followUps: nil) }
                }
                return try await group.reduce(into: [ApplyResult?]()) { $0.append($1) }
            }
            let landed = results.compactMap { $0 }
            #expect(landed.count == 1, "\(results)")
            let transitions = try #require(landed.first?.transitions)
            #expect(!transitions.isEmpty)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events") == eventsBefore + transitions.count)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM deliveries") == transitions.count)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations") == 2)
        }
    }

    @Test func eachDeliveryPointsAtTheTimelineRowOfItsTransition() async throws {
        try await Self.withStore { db, store in
            let item = EntrupyItem(entrupyID: "ENT-ONE-3", result: "authentic", resultFinal: true, flag: "flagged")
            // One delivery per transition, and one for a transition that does not exist.
            let change = Self.change(item, basedOn: nil, at: try await store.clock(),
                                     deliveriesFor: 0..<(TransitionDiffer.diff(from: nil, to: item.snapshot).count + 1))
            #expect(change.transitions.count >= 2, "\(change.transitions)")
            let result = try #require(try await store.commit(change, followUps: nil))
            #expect(result.deliveries == change.transitions.count)
            for (index, transition) in change.transitions.enumerated() {
                #expect(try await TestDatabase.scalar(db, """
                    SELECT count(*) FROM deliveries d JOIN item_events e ON e.id = d.item_event_id
                    WHERE d.action_index = \(index) AND e.kind = '\(transition.kind.rawValue)'
                    """) == 1, "\(transition.kind)")
            }
        }
    }

    @Test func aStaleAnswerIsRefusedOnceTheItemChangedSinceItsBasis() async throws {
        try await Self.withStore { db, store in
            let early = try await store.clock()
            let authentic = EntrupyItem(entrupyID: "ENT-ONE-4", result: "authentic", resultFinal: true)
            #expect(try await store.commit(Self.change(authentic, basedOn: nil, at: try await store.clock()), followUps: nil) != nil)
            let stored = try #require(try await store.state(of: "ENT-ONE-4"))
            let flagged = EntrupyItem(entrupyID: "ENT-ONE-4", result: "authentic", resultFinal: true, flag: "flagged")
            #expect(try await store.commit(Self.change(flagged, basedOn: stored, at: try await store.clock()), followUps: nil) != nil)

            var stale = Self.change(EntrupyItem(entrupyID: "ENT-ONE-4"), basedOn: stored, at: early, deliveriesFor: 0..<0)
            stale.transitions = []
            stale.stale = true
            #expect(try await store.commit(stale, followUps: nil) == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations WHERE outcome = 'stale'") == 0)
            stale.basedOn = try await store.state(of: "ENT-ONE-4")
            #expect(try await store.commit(stale, followUps: nil)?.stale == true)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations WHERE outcome = 'stale'") == 1)
        }
    }

    /// A change diffed against a stored item whose row has gone (an operator deleted it) is
    /// no first store: it is refused, and the next diff, against nothing, records the creation.
    @Test func aChangeDiffedAgainstARowThatIsGoneIsRefused() async throws {
        try await Self.withStore { db, store in
            let basis = try await Self.storedPending("ENT-ONE-5", in: store)
            _ = try await TestDatabase.scalar(db, "WITH gone AS (DELETE FROM items RETURNING 1) SELECT count(*) FROM gone")
            let authentic = EntrupyItem(entrupyID: "ENT-ONE-5", result: "authentic", resultFinal: true)
            #expect(try await store.commit(Self.change(authentic, basedOn: basis, at: try await store.clock()), followUps: nil) == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM items") == 0)
            let again = try await store.commit(Self.change(authentic, basedOn: nil, at: try await store.clock()), followUps: nil)
            #expect(again?.transitions.first?.kind == .itemCreated)
        }
    }

    /// The same, with the delete still uncommitted when the commit runs: it waits for the
    /// delete, then finds no row to change, and inserts none.
    @Test func aChangeWaitingOnAnUncommittedDeleteIsRefused() async throws {
        try await Self.withStore { db, store in
            let basis = try await Self.storedPending("ENT-ONE-6", in: store)
            try await TestDatabase.withClient(db) { other async throws in
                try await other.withConnection { connection async throws in
                    try await connection.query("BEGIN", logger: Self.logger)
                    try await connection.query("DELETE FROM items WHERE entrupy_id = 'ENT-ONE-6'", logger: Self.logger)
                    let authentic = EntrupyItem(entrupyID: "ENT-ONE-6", result: "authentic", resultFinal: true)
                    let now = try await store.clock()
                    let commit = Task { try await store.commit(Self.change(authentic, basedOn: basis, at: now), followUps: nil) }
                    #expect(try await TestDatabase.aSessionWaitsOnALock(db))
                    try await connection.query("COMMIT", logger: Self.logger)
                    #expect(try await commit.value == nil)
                }
            }
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM items") == 0)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations WHERE entrupy_id = 'ENT-ONE-6'") == 0)
        }
    }
}
