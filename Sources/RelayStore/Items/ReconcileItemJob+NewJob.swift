import RelayModel
import RelayQueue

extension ReconcileItemJob {
    /// The job to enqueue: at most one unfinished re-fetch per item.
    func job() throws -> NewJob {
        try NewJob(self, uniqueKey: uniqueKey, maxAttempts: Self.maxAttempts)
    }
}
