public import RelayQueue

/// How a delivery put off by its target's rate limit is shown, written with its job's snooze in
/// one statement (`DeliveryThrottleWrite`, served by `DeliveryOutcomeWrites` in RelayApp).
public protocol DeliveryThrottleRecording: Sendable {
    /// Snoozes the job for `wait` and sets the delivery's next attempt time to when it wakes.
    func finish(snoozing wait: Duration, recordingThrottleOf deliveryID: Int64) -> JobResult
}
