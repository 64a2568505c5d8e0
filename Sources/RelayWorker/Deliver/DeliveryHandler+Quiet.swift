import Foundation
import Logging
import Metrics
import RelayRuntime
public import RelayModel
public import RelayQueue

extension DeliveryHandler {
    /// The longest a held delivery's job sleeps before it looks again: a rules file reloaded
    /// without the quiet hours releases it within this.
    public static let quietRecheck = Duration.seconds(900)

    /// A delivery of a rule with quiet hours, due inside the window, is held: its job sleeps
    /// until the window ends (a few seconds later, jittered, so a night's backlog does not wake
    /// at one instant), at most `quietRecheck`, and the delivery shows until when. A rule
    /// without quiet hours costs a lookup among the rules in memory, no statement.
    func quietHold(_ delivery: DeliveryRecord) -> JobResult? {
        guard let pauses, let quiet = pauses.quietHours(delivery.rule) else { return nil }
        let now = Date()
        guard let release = quiet.release(after: now) else { return nil }
        let jitter = Double.random(in: 0.05...2.0)
        let wait = min(release.timeIntervalSince(now) + jitter, Double(Self.quietRecheck.components.seconds))
        MetricHandles.counter(.deliveriesQuiet, [("channel", delivery.channel.rawValue)]).increment()
        logger.debug("delivery held for quiet hours", metadata: [
            "delivery_id": "\(delivery.id)", "rule": "\(delivery.rule)", "until": "\(ISODate.text(release))",
        ])
        return pauses.records.finish(snoozing: .milliseconds(Int64(wait * 1_000)), recordingQuietHoldOf: delivery.id, until: release)
    }
}
