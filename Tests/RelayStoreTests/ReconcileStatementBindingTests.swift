import Foundation
import RelayModel
import RelayDatabase
import RelayQueue
@testable import RelayStore
import Testing

/// The reconcile statements name their parameters (issue 28: no `$27` worked out by hand).
/// Every name each one uses is given a value, and no value names a parameter it does not have,
/// whatever the change: new or stored, stale, with deliveries leased or not.
@Suite("Reconcile statements bind every named parameter")
struct ReconcileStatementBindingTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let item = EntrupyItem(entrupyID: "E1", customerItemID: "sku-1", result: "authentic", resultFinal: true)
    static let stored = StoredItemState(snapshot: ItemSnapshot(result: nil, resultFinal: false, flag: "none"), fetchedAt: now - 60)
    static let delivery = PlannedDelivery(transitionIndex: 0, entrupyID: "E1", rule: "r", actionIndex: 0, target: "https://x.example/***",
                                          payload: .webhook(.init(url: "https://x.example/h", headers: [], body: "{}")), signingKeyID: "k")

    static func change(basedOn: StoredItemState?, deliveries: [PlannedDelivery] = [], stale: Bool = false) -> ReconcileChange {
        ReconcileChange(item: item, observedAt: now, source: .webhook(eventID: 9), basedOn: basedOn,
                        transitions: TransitionDiffer.diff(from: basedOn?.snapshot, to: item.snapshot), deliveries: deliveries, stale: stale)
    }

    static func check(_ values: NamedBindings, _ sql: NamedSQL, _ label: String) {
        #expect(values.unset(in: sql).isEmpty, "\(label): no value for \(values.unset(in: sql))")
        #expect(values.unused(in: sql).isEmpty, "\(label): values for no parameter \(values.unused(in: sql))")
        #expect(!sql.text.contains(":"  + "entrupy_id"), "\(label): a name left unnumbered")
    }

    @Test func everyStatementAndEveryChange() async {
        for basis in [nil, Self.stored] {
            let plain = PostgresReconcileStore.StoreStatement(change: Self.change(basedOn: basis), item: Self.item)
            Self.check(plain.values, PostgresReconcileStore.StoreStatement.named, "store, basis \(basis != nil)")
            let withDeliveries = PostgresReconcileStore.StoreWithDeliveriesStatement(
                change: Self.change(basedOn: basis, deliveries: [Self.delivery]), item: Self.item, followUps: nil)
            Self.check(withDeliveries.values, PostgresReconcileStore.StoreWithDeliveriesStatement.named,
                       "store with deliveries, basis \(basis != nil)")
            // Given a worker's run's lease the queue's fragment sets it; the names are the same.
            let run = FollowUpJobs(lease: JobLease(worker: "w", duration: .seconds(30)), runnableKinds: [DeliverJob.kind])
            let leased = PostgresReconcileStore.StoreWithDeliveriesStatement(
                change: Self.change(basedOn: basis, deliveries: [Self.delivery]), item: Self.item, followUps: run).values
            Self.check(leased, PostgresReconcileStore.StoreWithDeliveriesStatement.named, "store with deliveries in a run, basis \(basis != nil)")
        }
        let stale = PostgresReconcileStore.RecordStaleStatement(change: Self.change(basedOn: Self.stored, stale: true), item: Self.item)
        Self.check(stale.values, PostgresReconcileStore.RecordStaleStatement.named, "stale")
    }

    /// The one with deliveries is the other with the deliveries' CTEs added (and the check of
    /// the submitter's ID they were rendered with, first): same item parameters, in the same order.
    @Test func theStatementsShareTheirItemParameters() {
        let plain = PostgresReconcileStore.StoreStatement.named.names
        let all = PostgresReconcileStore.StoreWithDeliveriesStatement.named.names
        #expect(Array(all.prefix(2)) == ["submitter_username", "submitter_unique_user_id"])
        let full = Array(all.dropFirst(2))
        #expect(Array(full.prefix(plain.count)) == plain)
        #expect(full.dropFirst(plain.count).allSatisfy { $0.hasPrefix("delivery_") || $0.hasPrefix("enqueued_") })
    }
}
