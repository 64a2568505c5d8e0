/// What the world does to one event, drawn when it is sent: dropped, or sent as some copies,
/// each held a while first (so events overtake one another), each retried on a schedule.
struct WebhookPlan: Sendable {
    var eventID: String
    var dropped: Bool
    /// Milliseconds each copy waits before its first attempt; one element per copy.
    var holds: [Int]
    var retrySchedule: [Int]

    static func draw(using random: inout SeededGenerator, behaviour: SimulatorBehaviour) -> WebhookPlan {
        let eventID = SimIdentifier.make("evt")
        guard !random.chance(behaviour.webhookDropRate) else {
            return WebhookPlan(eventID: eventID, dropped: true, holds: [], retrySchedule: [])
        }
        var copies = 1 + behaviour.duplicateWebhooks
        if random.chance(behaviour.webhookDuplicateRate) { copies += 1 }
        let reorder = behaviour.webhookReorderMilliseconds
        let holds = (0..<copies).map { _ in reorder > 0 ? Int.random(in: 0...reorder, using: &random) : 0 }
        return WebhookPlan(eventID: eventID, dropped: false, holds: holds, retrySchedule: behaviour.webhookRetryScheduleMilliseconds)
    }
}
