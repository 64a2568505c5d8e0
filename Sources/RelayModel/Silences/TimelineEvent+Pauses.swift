import Foundation

extension TimelineEvent {
    /// A silenced delivery (`delivery.silenced`), or one held for its rule's quiet hours
    /// (`delivery.quiet`), as a line of its item's timeline, at its creation: neither made an
    /// attempt, which is what the timeline otherwise shows of a delivery.
    static func pause(of delivery: DeliveryRecord, now: Date = Date()) -> TimelineEvent? {
        guard let text = delivery.pauseText(now: now) else { return nil }
        return TimelineEvent(kind: delivery.state == .silenced ? "delivery.silenced" : "delivery.quiet", at: delivery.createdAt,
                             summary: "\(delivery.rule): \(delivery.channel.rawValue) to \(delivery.target), \(text)",
                             webhookEventID: nil, deliveryID: delivery.id, rank: 4)
    }
}
