public import RelayModel
public import RelayQueue

/// A deliver job's outcome as writes that commit with the job's finish (`DeliveryAttemptWrite`,
/// `DeliveryHoldWrite`, each a `JobRecordWrite`): the queue's finishing statement carries them
/// as CTEs, so the attempt, the delivery's new state and the job's commit in one statement.
/// Serves the deliver handler's `DeliveryOutcomeRecording` port.
public struct DeliveryOutcomeWrites: Sendable {
    public init() {}

    public func finish(_ outcome: JobOutcome, recordingAttempt attempt: DeliveryAttempt, of deliveryID: Int64,
                       retryIn: Duration?, ownFailure: Bool) -> JobResult {
        JobResult(outcome, recording: DeliveryAttemptWrite(deliveryID: deliveryID, attempt: attempt, retryIn: retryIn, ownFailure: ownFailure))
    }

    public func finish(_ outcome: JobOutcome, recordingHoldOf deliveryID: Int64, by target: String) -> JobResult {
        JobResult(outcome, recording: DeliveryHoldWrite(deliveryID: deliveryID, target: target))
    }

    public func finish(_ outcome: JobOutcome, recordingOrderHoldOf deliveryID: Int64, behind: Int64, recheckIn: Duration) -> JobResult {
        JobResult(outcome, recording: DeliveryOrderHoldWrite(deliveryID: deliveryID, behind: behind, recheckIn: recheckIn))
    }
}
