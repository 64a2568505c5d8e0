import RelayModel
import RelayQueue
import RelayStore
import RelayWorker

/// The deliver handler's outcomes as the worker is wired with them (`DeliveryOutcomeWrites`):
/// the tests read the write a result carries to the job's finish.
struct WritesWithTheJob: DeliveryOutcomeRecording {
    let writes = DeliveryOutcomeWrites()

    func finish(_ outcome: JobOutcome, recordingAttempt attempt: DeliveryAttempt, of deliveryID: Int64,
                retryIn: Duration?, ownFailure: Bool) -> JobResult {
        writes.finish(outcome, recordingAttempt: attempt, of: deliveryID, retryIn: retryIn, ownFailure: ownFailure)
    }

    func finish(_ outcome: JobOutcome, recordingHoldOf deliveryID: Int64, by target: String) -> JobResult {
        writes.finish(outcome, recordingHoldOf: deliveryID, by: target)
    }

    func finish(_ outcome: JobOutcome, recordingOrderHoldOf deliveryID: Int64, behind: Int64, recheckIn: Duration) -> JobResult {
        writes.finish(outcome, recordingOrderHoldOf: deliveryID, behind: behind, recheckIn: recheckIn)
    }
}
