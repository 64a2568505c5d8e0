import Logging
import RelayModel
import RelayQueue

/// Order per item and target: a delivery for an item is not attempted while an earlier one for
/// the same item, channel and target is pending or failed. The load that reads the claimed
/// batch's deliveries finds that one (`DeliveryOrderBlocker`), so the check costs no statement;
/// a held delivery's hold is written with its job's snooze (`DeliveryOrderHoldWrite`), and the
/// statement that settles the earlier one wakes its job at once (`DeliveryAttemptWrite`).
/// Operational deliveries (no item) are never held.
extension DeliveryHandler {
    /// Never sooner: a recheck while the earlier delivery is being sent right now.
    static let orderRecheckFloor = Duration.seconds(1)
    /// The longest recheck of an earlier delivery that is due but not yet sent (a backlog). Short:
    /// a hold written by one finish batch while another settles the earlier delivery is not seen
    /// by that settle's release (each statement reads what was committed when it began), so this
    /// recheck is what sends it then.
    static let orderRecheckOverdue = Duration.seconds(5)
    /// The recheck of an earlier delivery that has no attempt scheduled (held by its target's
    /// breaker, which releases it only by its drain).
    static let orderRecheckUnscheduled = Duration.seconds(600)

    /// The result that holds `delivery` behind the earlier delivery its load found, or nil when
    /// there is none and it may be attempted.
    func orderHold(_ delivery: DeliveryRecord) -> JobResult? {
        guard let blocker = delivery.orderBlocker, !delivery.isOperational else { return nil }
        // Not before its own group is due either: it would only wait for that (a digest of its rule, whose earlier member holds it).
        let recheck = max(Self.orderRecheck(after: blocker), Self.groupWait(of: delivery) ?? .zero) * Double.random(in: 0.9...1.1)
        logger.debug("delivery held behind an earlier one", metadata: [
            "delivery_id": "\(delivery.id)", "held_behind": "\(blocker.id)", "entrupy_id": "\(delivery.entrupyID ?? "-")",
        ])
        return outcomes.finish(.snooze(recheck), recordingOrderHoldOf: delivery.id, behind: blocker.id, recheckIn: recheck)
    }

    /// When a held delivery's job looks again, should the wake-up from the earlier one's settling
    /// be lost (it was being settled while this hold was written). Pure. Never before the earlier
    /// one's next attempt: until then nothing but a redrive can settle it, and its attempt wakes
    /// this one. Due now: soon after, the longer the more it is overdue (a backlog it waits in).
    static func orderRecheck(after blocker: DeliveryOrderBlocker) -> Duration {
        guard let dueIn = blocker.dueIn else { return orderRecheckUnscheduled }
        if dueIn > .zero { return min(dueIn + orderRecheckFloor, holdRecheck) }
        return min(max(.zero - dueIn, orderRecheckFloor), orderRecheckOverdue)
    }
}
