import RelayCore
import Testing
@testable import RelayQueue

/// What a worker's run lets a `JobInsert` lease, without a database: the fragment's values
/// are what the statement would insert with.
@Suite("Follow-up jobs in a worker's run")
struct FollowUpJobsTests {
    struct Child: RowJobArgs {
        static let kind = "child"
        static let idArgument = "id"
        static let uniqueKeyPrefix = "child:"
    }

    static let lease = JobLease(worker: "w1", duration: .seconds(30))

    @Test func outsideARunNothingIsLeased() {
        #expect(FollowUpJobs.current == nil)
        let insert = JobInsert<Child>(as: "enqueued", forEachRowOf: "rows", maxAttempts: 3)
        #expect(insert.adopt(ids: [], args: []) == 0)
    }

    @Test func aRunLeasesOnlyKindsItsWorkerRunsAndNoMoreThanItsFreeSlots() async {
        let other = FollowUpJobs(lease: Self.lease, runnableKinds: ["parent"])
        #expect(other.lease(forRunning: Child.kind) == nil, "no handler for the kind: nothing leased")

        let run = FollowUpJobs(lease: Self.lease, runnableKinds: [Child.kind], freeSlots: { 3 })
        #expect(run.lease(forRunning: Child.kind)?.limit == 3)
        #expect(run.lease(forRunning: Child.kind)?.worker == "w1")
        let insert = JobInsert<Child>(as: "enqueued", forEachRowOf: "rows", maxAttempts: 0)
        let adopted = await run.run { insert.adopt(ids: [7, 8], args: [#"{"id": 7}"#, #"{"id": 8}"#]) }
        #expect(adopted == 2)
        #expect(run.jobs.map(\.id) == [7, 8])
        #expect(run.jobs.allSatisfy { $0.kind == Child.kind && $0.attempt == 1 && $0.maxAttempts == 1 && $0.crashes == 0 })
        // What it was given counts against its slots: one left.
        #expect(run.lease(forRunning: Child.kind)?.limit == 1)
        #expect(run.take().count == 2)
        #expect(run.take().isEmpty, "handed over once")

        let full = FollowUpJobs(lease: Self.lease, runnableKinds: [Child.kind], freeSlots: { 0 })
        #expect(full.lease(forRunning: Child.kind) == nil, "no slot free: nothing leased")
    }

    @Test func theFragmentNamesItsParametersAfterItselfAndNotifiesNobody() {
        let insert = JobInsert<Child>(as: "queued_children", forEachRowOf: "rows", maxAttempts: 3)
        #expect(insert.text.hasPrefix("queued_children AS ("))
        #expect(insert.text.contains("queued_children_leased AS ("))
        #expect(insert.text.contains("FROM rows"))
        #expect(!insert.text.contains("pg_notify"), "a NOTIFY in the caller's transaction would serialise commits")
        let names = NamedSQL(insert.text).names
        #expect(names.count == 7 && names.allSatisfy { $0.hasPrefix("queued_children_") }, "\(names)")
    }
}
