public import Foundation
public import RelayQueue

extension DeliveryOutcomeWrites {
    /// Completes the job and, in the same statement, marks the delivery silenced.
    public func finish(recordingSilenceOf deliveryID: Int64, by silenceID: Int64) -> JobResult {
        JobResult(.completed, recording: DeliverySilenceWrite(deliveryID: deliveryID, silenceID: silenceID))
    }

    /// Snoozes the job and, in the same statement, shows the delivery held for quiet hours.
    public func finish(snoozing wait: Duration, recordingQuietHoldOf deliveryID: Int64, until: Date) -> JobResult {
        JobResult(.snooze(wait), recording: DeliveryQuietWrite(deliveryID: deliveryID, until: until))
    }
}
