public import RelayModel
public import RelayQueue

/// Where a `deliver` job's outcome is written: the attempt, or the breaker's hold, and the
/// delivery's new state. The handler returns what these answer, and the write goes with the
/// job: the worker commits it in the very statement that finishes (or reschedules) the job,
/// once the handler has returned, batched with other runs' finishes (one round trip, one
/// transaction). So the delivery row and its job never disagree, and a run whose finish is
/// lost wrote nothing: the job runs again. Served by `DeliveryOutcomeWrites` (RelayStore),
/// wired in RelayApp.
public protocol DeliveryOutcomeRecording: Sendable {
    /// The result that finishes the job with `outcome` and, in the same statement, records
    /// `attempt` at delivery `deliveryID` and moves the delivery to `attempt.outcome` (due
    /// again in `retryIn` when failed). `ownFailure`: it failed for reasons of its own
    /// (`FailureCause.delivery`). Written only if the delivery is still at the attempt before.
    func finish(_ outcome: JobOutcome, recordingAttempt attempt: DeliveryAttempt, of deliveryID: Int64,
                retryIn: Duration?, ownFailure: Bool) -> JobResult

    /// The result that finishes the job with `outcome` (a snooze) and, in the same statement,
    /// marks delivery `deliveryID` held by the breaker of `target`: no attempt is recorded.
    func finish(_ outcome: JobOutcome, recordingHoldOf deliveryID: Int64, by target: String) -> JobResult

    /// The result that finishes the job with `outcome` (a snooze of `recheckIn`) and, in the same
    /// statement, marks delivery `deliveryID` held behind delivery `behind` (order per item and
    /// target), if that one is still pending or failed: no attempt is recorded.
    func finish(_ outcome: JobOutcome, recordingOrderHoldOf deliveryID: Int64, behind: Int64, recheckIn: Duration) -> JobResult
}
