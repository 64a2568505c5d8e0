import EntrupyAPI
import RelayCore
import RelayQueue
import RelayStore

/// `reconcile_item`: the sweep's and support's re-fetch of an item the relay knows.
public struct ReconcileItemHandler: JobHandler {
    let pipeline: ReconcilePipeline

    public init(pipeline: ReconcilePipeline) {
        self.pipeline = pipeline
    }

    public func run(_ args: ReconcileItemJob, context: JobContext) async throws -> JobResult {
        let target: ReconcilePipeline.Target
        if let id = args.entrupyID {
            target = .entrupyID(id)
        } else if let id = args.customerItemID {
            target = .customerItemID(id)
        } else {
            return .discard(error: "job names no item")
        }
        do {
            try await pipeline.reconcile(target, source: args.reconcileSource)
            return .completed
        } catch let error as EntrupyAPIError {
            return error.jobResult
        }
    }
}
