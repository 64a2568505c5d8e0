import RelayCore
import RelayStore

/// `reconcile_item {entrupy_id | customer_item_id, source}`: the sweep's and support's re-fetch.
public struct ReconcileItemHandler: JobHandler {
    public static let kindName = NewJob.reconcileItemKind
    public let kind = ReconcileItemHandler.kindName
    let reconciler: Reconciler

    public init(reconciler: Reconciler) {
        self.reconciler = reconciler
    }

    public static func job(entrupyID: String, source: ReconcileSource) -> NewJob {
        NewJob.reconcileItem(entrupyID: entrupyID, source: source)
    }

    public func run(_ job: ClaimedJob) async throws -> JobOutcome {
        let source: ReconcileSource = job.args["source"]?.stringValue == "manual" ? .manual : .sweep
        if let id = job.args["entrupy_id"]?.stringValue {
            return try await reconciler.reconcile(.entrupyID(id), source: source, attempt: job.attempt)
        }
        if let id = job.args["customer_item_id"]?.stringValue {
            return try await reconciler.reconcile(.customerItemID(id), source: source, attempt: job.attempt)
        }
        return .discard(error: "job names no item")
    }
}
