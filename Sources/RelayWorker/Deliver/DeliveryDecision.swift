public import RelayModel

/// What one attempt means for its delivery: the next state and, while it is `failed`, the
/// wait before the next attempt. Pure. The delivery row is the only place this is kept: its
/// attempt count numbers attempts, and the retry schedule counts from its last redrive, so
/// the attempt number, `dead` and a redrive can never disagree.
public struct DeliveryDecision: Sendable, Equatable {
    public var state: DeliveryState
    public var retryIn: Duration?

    /// The longest a target's Retry-After may park a delivery.
    public static let maxRetryAfter = Duration.seconds(86_400)

    /// - Parameter attemptInRound: this attempt's number since the delivery was created or
    ///   last redriven, from 1. When the schedule has no wait after it, a transient failure is
    ///   final too: a target's Retry-After replaces the schedule's wait, never extends it.
    public static func after(_ report: AttemptReport, attemptInRound: Int, schedule: RetrySchedule) -> DeliveryDecision {
        switch report.result {
        case .delivered:
            return DeliveryDecision(state: .delivered, retryIn: nil)
        case .permanent:
            return DeliveryDecision(state: .dead, retryIn: nil)
        case .transient:
            guard let scheduled = schedule.delay(afterAttempt: attemptInRound) else { return DeliveryDecision(state: .dead, retryIn: nil) }
            let wait = report.retryAfter.map { min(max($0, .zero), maxRetryAfter) } ?? scheduled
            return DeliveryDecision(state: .failed, retryIn: wait)
        }
    }
}
