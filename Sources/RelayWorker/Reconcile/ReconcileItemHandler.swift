import EntrupyAPI
public import RelayModel
public import RelayQueue
public import RelayRuntime

/// `reconcile_item`: the sweep's and support's re-fetch of an item the relay knows.
public struct ReconcileItemHandler: JobHandler {
    let pipeline: ReconcilePipeline
    /// Shared with the webhook handler: one fetch of an item at a time in this worker.
    let itemLock: KeyedLock

    public init(pipeline: ReconcilePipeline, itemLock: KeyedLock = KeyedLock()) {
        self.pipeline = pipeline
        self.itemLock = itemLock
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
            try await itemLock.withLock(target.lockKey) {
                // Its deliveries go in claimed by this worker, which sends them when this handler returns.
                _ = try await pipeline.reconcile(target, source: args.reconcileSource, followUps: context.followUps)
            }
            return .completed
        } catch let error as EntrupyAPIError {
            return error.jobResult
        }
    }
}
