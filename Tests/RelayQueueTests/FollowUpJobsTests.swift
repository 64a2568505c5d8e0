import RelayDatabase
import RelayModel
import Synchronization
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

    /// A statement leases only under the lease it is given: without one (no worker's run)
    /// nothing is leased and what it hands to `adopt` goes to no run, even while another
    /// run is under way.
    @Test func withoutARunsLeaseNothingIsLeasedOrAdopted() {
        let run = FollowUpJobs(lease: Self.lease, runnableKinds: [Child.kind])
        let insert = JobInsert<Child>(as: "enqueued", forEachRowOf: "rows", maxAttempts: 3)
        let unleased = insert.values(leasingTo: nil).bindings(for: NamedSQL(insert.text))
        let leased = insert.values(leasingTo: run).bindings(for: NamedSQL(insert.text))
        #expect(unleased != leased, "the run's lease is bound only when given")
        #expect(insert.adopt(ids: [1], args: [#"{"id": 1}"#], into: nil) == 1)
        #expect(run.jobs.isEmpty)
        insert.adopt(ids: [2], args: [#"{"id": 2}"#], into: run)
        #expect(run.jobs.map(\.id) == [2])
    }

    /// A handler the worker stopped waiting for (its timeout, a shutdown) may still commit:
    /// what it adopts after the worker took the run's jobs goes to `late`, and it is leased
    /// nothing more.
    @Test func jobsAdoptedAfterTheWorkerTookTheRunsGoToLate() {
        let late = LateJobs()
        let run = FollowUpJobs(lease: Self.lease, runnableKinds: [Child.kind], freeSlots: { 4 }) { jobs in late.jobs.withLock { $0 += jobs } }
        let insert = JobInsert<Child>(as: "enqueued", forEachRowOf: "rows", maxAttempts: 3)
        insert.adopt(ids: [1], args: [#"{"id": 1}"#], into: run)
        #expect(run.take().map(\.id) == [1])
        #expect(run.lease(forRunning: Child.kind) == nil, "taken: nothing more is leased")
        insert.adopt(ids: [2], args: [#"{"id": 2}"#], into: run)
        #expect(run.jobs.isEmpty)
        #expect(late.jobs.withLock { $0.map(\.id) } == [2])
    }

    final class LateJobs: Sendable {
        let jobs = Mutex<[ClaimedJob]>([])
    }

    @Test func aRunLeasesOnlyKindsItsWorkerRunsAndNoMoreThanItsFreeSlots() {
        let other = FollowUpJobs(lease: Self.lease, runnableKinds: ["parent"])
        #expect(other.lease(forRunning: Child.kind) == nil, "no handler for the kind: nothing leased")

        let run = FollowUpJobs(lease: Self.lease, runnableKinds: [Child.kind], freeSlots: { 3 })
        #expect(run.lease(forRunning: Child.kind)?.limit == 3)
        #expect(run.lease(forRunning: Child.kind)?.worker == "w1")
        let insert = JobInsert<Child>(as: "enqueued", forEachRowOf: "rows", maxAttempts: 0)
        let adopted = insert.adopt(ids: [7, 8], args: [#"{"id": 7}"#, #"{"id": 8}"#], into: run)
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
        #expect(names.count == 8 && names.allSatisfy { $0.hasPrefix("queued_children_") }, "\(names)")
        #expect(names.contains("queued_children_trace_parent"), "each job carries the trace context it was made in")
        // With a column of its own for each row's trace context, the fragment takes none.
        let perRow = JobInsert<Child>(as: "queued_children", forEachRowOf: "rows", traceParentColumn: "rows.trace_parent", maxAttempts: 3)
        #expect(!NamedSQL(perRow.text).names.contains("queued_children_trace_parent") && perRow.text.contains("rows.trace_parent"))
        #expect(perRow.values(leasingTo: nil).unused(in: NamedSQL(perRow.text)).isEmpty)
        #expect(insert.values(leasingTo: nil).unused(in: NamedSQL(insert.text)).isEmpty)
    }
}
