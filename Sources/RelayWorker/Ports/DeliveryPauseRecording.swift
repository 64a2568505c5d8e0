public import Foundation
public import RelayQueue

/// How a delivery that is not attempted is recorded with its job's finish, in one statement
/// (`DeliverySilenceWrite`, `DeliveryQuietWrite`, served by `DeliveryOutcomeWrites` in RelayApp).
public protocol DeliveryPauseRecording: Sendable {
    /// Completes the job and marks the delivery `silenced` by silence `silenceID`.
    func finish(recordingSilenceOf deliveryID: Int64, by silenceID: Int64) -> JobResult
    /// Snoozes the job for `wait` and shows the delivery held for quiet hours until `until`.
    func finish(snoozing wait: Duration, recordingQuietHoldOf deliveryID: Int64, until: Date) -> JobResult
}
