import EntrupyAPI
public import RelayModel
public import RelayQueue
public import RelayRuntime

/// `check_overdue`: the item is fetched first (the reconcile's own fetch, at background
/// priority), and `result.overdue` is recorded with it, through the rules, only if the answer
/// is still not final; an answer that is final records what changed and no overdue. Once per
/// item and threshold: a run after one that recorded it (a retry after a crash) records nothing.
public struct CheckOverdueHandler: JobHandler {
    let pipeline: ReconcilePipeline
    let store: any OverdueStoring
    /// Shared with the other reconcile handlers: one fetch of an item at a time in this worker.
    let itemLock: KeyedLock

    public init(pipeline: ReconcilePipeline, store: any OverdueStoring, itemLock: KeyedLock = KeyedLock()) {
        self.pipeline = pipeline
        self.store = store
        self.itemLock = itemLock
    }

    public func run(_ args: CheckOverdueJob, context: JobContext) async throws -> JobResult {
        let target = ReconcilePipeline.Target.entrupyID(args.entrupyID)
        do {
            try await itemLock.withLock(target.lockKey) {
                if try await store.overdueRecorded(entrupyID: args.entrupyID, threshold: args.threshold) {
                    try await store.markOverdue(entrupyID: args.entrupyID, threshold: args.threshold)
                    return
                }
                let result = try await pipeline.reconcile(target, source: .sweep, followUps: context.followUps, overdue: args.threshold)
                if result.transitions.contains(where: { $0.kind == .resultOverdue }) {
                    try await store.markOverdue(entrupyID: args.entrupyID, threshold: args.threshold)
                }
            }
            return .completed
        } catch let error as EntrupyAPIError {
            // An answer that will not change (Entrupy does not know the item), or the last
            // attempt: the item is not asked about at this threshold again, so a pass cannot
            // spend every run on the same items.
            let result = error.jobResult
            let givenUp: Bool
            switch result.outcome {
            case .discard: givenUp = true
            default: givenUp = context.isLastAttempt
            }
            if givenUp { try await store.markOverdue(entrupyID: args.entrupyID, threshold: args.threshold) }
            return result
        }
    }
}
