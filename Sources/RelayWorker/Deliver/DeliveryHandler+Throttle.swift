import Metrics
public import RelayModel
public import RelayQueue
import RelayRuntime

extension DeliveryHandler {
    /// This handler, with deliveries to the targets the rules' `targets:` list limits throttled.
    public func throttled(by throttle: DeliveryThrottle) -> DeliveryHandler {
        var handler = self
        handler.throttle = throttle
        return handler
    }

    /// A delivery to a target with a rate limit (its origin's, or smtp's) takes the target's next
    /// slot, shared by every replica, and waits for it here when it is due within a second; else
    /// it takes no slot and its job sleeps until about its appointment, at most the throttle's
    /// `longestSnooze`, then asks again (`ThrottleAnswer`). Nil:
    /// send now. A target without a rate limit costs a lookup among the rules in memory, no
    /// statement. Run last before the attempt (the breaker admitted it, the limiter gave a slot
    /// in flight), so a slot taken is a slot used.
    func awaitThrottleSlot(_ delivery: DeliveryRecord, key: String) async throws -> JobResult? {
        guard let throttle, let limit = throttle.limits().rateLimit(of: key) else { return nil }
        switch try await throttle.slots.take(key: TargetKey.host(ofKey: key), limit: limit, longestWait: throttle.longestSnooze) {
        case .slot(let wait):
            guard wait > .zero else { return nil }
            do {
                try await Task.sleep(for: wait)
            } catch {
                // Stopping: the slot is lost rather than the target sent to before it.
                return .snooze(limit.period)
            }
            return nil
        case .later(let appointment):
            MetricHandles.counter(.deliveriesThrottled, [("channel", delivery.channel.rawValue)]).increment()
            let snooze = ThrottleAnswer.snooze(before: appointment, jitter: .random(in: 0...1), longest: throttle.longestSnooze)
            // Written with the job's snooze: the delivery's next attempt time says when it wakes.
            return throttle.records?.finish(snoozing: snooze, recordingThrottleOf: delivery.id) ?? .snooze(snooze)
        }
    }
}
