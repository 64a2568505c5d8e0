import RelayCore
import RelayStore

/// `reconcile_item {entrupy_id | customer_item_id, source}`: the sweep's and support's re-fetch.
public struct ReconcileItemHandler: JobHandler {
    public static let kindName = "reconcile_item"
    public let kind = ReconcileItemHandler.kindName
    let reconciler: Reconciler

    public init(reconciler: Reconciler) {
        self.reconciler = reconciler
    }

    public static func job(entrupyID: String, source: ReconcileSource) -> NewJob {
        NewJob(kind: kindName, args: .object(["entrupy_id": .string(entrupyID), "source": .string(source.label)]),
               uniqueKey: "reconcile:" + entrupyID, maxAttempts: 10)
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
