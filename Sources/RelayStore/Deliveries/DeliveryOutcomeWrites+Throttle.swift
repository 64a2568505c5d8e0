public import RelayQueue

extension DeliveryOutcomeWrites {
    /// Snoozes the job for `wait` and, in the same statement, sets the delivery's next attempt
    /// time to when it wakes (`DeliveryThrottleWrite`).
    public func finish(snoozing wait: Duration, recordingThrottleOf deliveryID: Int64) -> JobResult {
        JobResult(.snooze(wait), recording: DeliveryThrottleWrite(deliveryID: deliveryID, wakeIn: wait))
    }
}
