import Foundation
import Logging
import RelayModel
import PostgresNIO
import RelayQueue
import RelayStore
import Testing

/// The reconcile commit is a compare-and-swap on the item's row: it stores a change only while
/// the item is as the change was computed against, so a transition is recorded once however
/// many workers fetched the item at the same time.
@Suite("Reconcile commit against real PostgreSQL", .timeLimit(.minutes(2)))
struct PostgresReconcileStoreTests {
    static let logger = Logger(label: "reconcile-commit-tests")

    static func change(_ item: EntrupyItem, basedOn: StoredItemState?, at observedAt: Date) -> ReconcileChange {
        ReconcileChange(item: item, observedAt: observedAt, source: .sweep, basedOn: basedOn,
                        transitions: TransitionDiffer.diff(from: basedOn?.snapshot, to: item.snapshot), deliveries: [])
    }

    @Test func aNewItemCommittedByEightWorkersAtOnceIsStoredOnce() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let now = try await store.clock()
            let fetched = EntrupyItem(entrupyID: "ENT-CAS-1", result: "authentic", resultFinal: true)
            let expected = TransitionDiffer.diff(from: nil, to: fetched.snapshot)
            let results = try await withThrowingTaskGroup(of: ApplyResult?.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await store.commit(Self.change(fetched, basedOn: nil, at: now), followUps: nil) }
                }
                return try await group.reduce(into: [ApplyResult?]()) { $0.append($1) }
            }
            #expect(!expected.isEmpty)
            #expect(results.compactMap { $0 }.count == 1, "\(results)")
            #expect(results.compactMap { $0 }.first?.transitions == expected)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM items") == 1)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events") == expected.count)
            // The refused commits' records of their fetch were rolled back with them.
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations") == 1)
        }
    }

    /// A reconcile's commit ends the fetch lease it was given in the round trip that waits for
    /// the commit to be durable; a refused commit leaves it held, for the next round.
    @Test func aCommitEndsItsFetchLeaseAndARefusedOneKeepsIt() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let leases = PostgresFetchLeases(client: client, logger: Self.logger, duration: .seconds(60))
            let holder = try #require(try await leases.take("id:ENT-LEASE-1"))
            let lease = FetchLease(key: "id:ENT-LEASE-1", holder: holder)
            let now = try await store.clock()
            let fetched = EntrupyItem(entrupyID: "ENT-LEASE-1", result: "authentic", resultFinal: true)
            let stale = StoredItemState(snapshot: ItemSnapshot(result: "replica", resultFinal: false, flag: "none"), fetchedAt: now)
            #expect(try await store.commit(Self.change(fetched, basedOn: stale, at: now), followUps: nil, releasing: lease) == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_fetch_leases") == 1, "refused: still held")
            let committed = try #require(try await store.commit(Self.change(fetched, basedOn: nil, at: now), followUps: nil, releasing: lease))
            #expect(committed.leaseEnded, "the caller is told, so it does not release it again")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_fetch_leases") == 0, "committed: ended")
            #expect(try await leases.take("id:ENT-LEASE-1") != nil, "free for the next fetch")
        }
    }

    /// The race the row lock cannot cover: the item is not stored when the commit reads it,
    /// and another worker's first store of it is still uncommitted. The commit waits on the
    /// insert's conflict, then gives up rather than overwrite it.
    @Test func aFirstStoreThatLosesTheRaceToAnUncommittedOneIsRefused() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            try await client.withConnection { other async throws in
                try await other.query("BEGIN", logger: Self.logger)
                try await other.query("INSERT INTO items (entrupy_id, result, fetched_at, raw) VALUES ('ENT-CAS-4', 'replica', now(), '{}')",
                                      logger: Self.logger)
                let fetched = EntrupyItem(entrupyID: "ENT-CAS-4", result: "authentic", resultFinal: true)
                let now = try await store.clock()
                let commit = Task { try await store.commit(Self.change(fetched, basedOn: nil, at: now), followUps: nil) }
                // Only once the commit waits on the uncommitted row does the other worker commit.
                #expect(try await TestDatabase.aSessionWaitsOnALock(db))
                try await other.query("COMMIT", logger: Self.logger)
                #expect(try await commit.value == nil)
            }
            #expect(try await store.state(of: "ENT-CAS-4")?.snapshot.result == "replica")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events") == 0)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations") == 0)
        }
    }

    @Test func aCommitComputedAgainstAStateNoLongerStoredIsRefusedAndWritesNothing() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let pending = EntrupyItem(entrupyID: "ENT-CAS-2", result: nil, resultFinal: false)
            #expect(try await store.commit(Self.change(pending, basedOn: nil, at: try await store.clock()), followUps: nil) != nil)
            let first = try #require(try await store.state(of: "ENT-CAS-2"))

            let authentic = EntrupyItem(entrupyID: "ENT-CAS-2", result: "authentic", resultFinal: true)
            let stored = try await store.commit(Self.change(authentic, basedOn: first, at: try await store.clock()), followUps: nil)
            #expect(stored?.transitions.isEmpty == false)
            let events = try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events")

            // A worker that diffed against the first state, and one that thinks the item is new.
            let flagged = EntrupyItem(entrupyID: "ENT-CAS-2", result: "authentic", resultFinal: true, flag: "flagged")
            #expect(try await store.commit(Self.change(flagged, basedOn: first, at: try await store.clock()), followUps: nil) == nil)
            #expect(try await store.commit(Self.change(flagged, basedOn: nil, at: try await store.clock()), followUps: nil) == nil)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM item_events") == events)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations") == 2)
            #expect(try await store.state(of: "ENT-CAS-2")?.snapshot == authentic.snapshot)

            // Diffed again against what is stored, the same answer lands.
            let current = try await store.state(of: "ENT-CAS-2")
            let again = try await store.commit(Self.change(flagged, basedOn: current, at: try await store.clock()), followUps: nil)
            #expect(again?.transitions.map(\.kind) == [.flagRaised])
            #expect(try await store.state(of: "ENT-CAS-2")?.snapshot == flagged.snapshot)
        }
    }

    @Test func anAnswerOlderThanTheStoredOneIsRecordedAsStaleAndChangesNothing() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let early = try await store.clock()
            let authentic = EntrupyItem(entrupyID: "ENT-CAS-3", result: "authentic", resultFinal: true)
            #expect(try await store.commit(Self.change(authentic, basedOn: nil, at: try await store.clock()), followUps: nil) != nil)
            let stored = try await store.state(of: "ENT-CAS-3")
            var stale = Self.change(EntrupyItem(entrupyID: "ENT-CAS-3"), basedOn: stored, at: early)
            stale.transitions = []
            stale.stale = true
            #expect(try await store.commit(stale, followUps: nil)?.stale == true)
            #expect(try await store.state(of: "ENT-CAS-3") == stored)
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM reconciliations WHERE outcome = 'stale'") == 1)
        }
    }

    /// The deliveries' jobs are enqueued inside the commit's transaction without a NOTIFY
    /// (that would make concurrent commits queue behind each other's WAL flush); the workers
    /// are woken right after the commit, and by then the jobs are claimable.
    @Test func aCommitWithDeliveriesWakesTheWorkersAfterwards() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let now = try await store.clock()
            let fetched = EntrupyItem(entrupyID: "ENT-WAKE-1", result: "authentic", resultFinal: true)
            var change = Self.change(fetched, basedOn: nil, at: now)
            change.deliveries = [PlannedDelivery(transitionIndex: 0, entrupyID: "ENT-WAKE-1", rule: "r", actionIndex: 0,
                                                 target: "https://example.com/hook", payload: .webhook(.init(url: "https://example.com/hook", headers: [], body: "{}")),
                                                 signingKeyID: nil)]
            let toCommit = change
            let jobsWhenWoken = try await WakeListener.firstWake(db, during: {
                let deliveries = try await store.commit(toCommit, followUps: nil)?.deliveries
                #expect(deliveries == 1)
            }, then: {
                try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE kind = 'deliver' AND state = 'available'")
            })
            #expect(jobsWhenWoken == 1)
        }
    }

    /// In a worker's run, the deliveries' jobs go to it claimed (it runs them once its handler
    /// returns), and nobody is woken: no other worker could claim them.
    @Test func aCommitWithALeaseReturnsItsDeliveriesJobsClaimed() async throws {
        try await TestDatabase.withFresh { db, client async throws in
            let store = PostgresReconcileStore(client: client, logger: Self.logger)
            let now = try await store.clock()
            var change = Self.change(EntrupyItem(entrupyID: "ENT-LEASE-1", result: "authentic", resultFinal: true), basedOn: nil, at: now)
            change.deliveries = (0..<2).map { index in
                PlannedDelivery(transitionIndex: 0, entrupyID: "ENT-LEASE-1", rule: "r", actionIndex: index,
                                target: "https://example.com/hook", payload: .webhook(.init(url: "https://example.com/hook", headers: [], body: "{}")), signingKeyID: nil)
            }
            let toCommit = change
            let run = FollowUpJobs(lease: JobLease(worker: "reconciler-1", duration: .seconds(30)), runnableKinds: [DeliverJob.kind])
            // Notifications arrive in commit order: if the commit had woken anyone, its wake
            // would come before the marker sent after it.
            let first = try await TestDatabase.withClient(db) { listener in
                try await listener.withConnection { connection in
                    try await connection.listen(on: PostgresJobQueue.channel) { notifications -> String? in
                        let result = try #require(try await store.commit(toCommit, followUps: run))
                        #expect(result.deliveries == 2)
                        #expect(run.jobs.map(\.kind) == ["deliver", "deliver"])
                        #expect(run.jobs.map(\.attempt) == [1, 1])
                        let ids = try run.jobs.map { try $0.decode(DeliverJob.self).deliveryID }
                        #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM deliveries WHERE id IN (\(ids.map(String.init).joined(separator: ",")))") == 2)
                        _ = try await client.query("SELECT pg_notify(\(PostgresJobQueue.channel), 'marker')", logger: Self.logger).collect()
                        for try await notification in notifications { return notification.payload }
                        return nil
                    }
                }
            }
            #expect(first == "marker", "no wake: the jobs are already claimed")
            #expect(try await TestDatabase.scalar(db, "SELECT count(*) FROM jobs WHERE kind = 'deliver' AND state = 'running' AND leased_by = 'reconciler-1' AND attempt = 1") == 2)
        }
    }
}
