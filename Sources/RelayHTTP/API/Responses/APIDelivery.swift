public import RelayModel
import Foundation

/// A delivery as lists show it; the payload is left out (it can be large).
public struct APIDelivery: Encodable, Sendable {
    let id: Int64
    /// Null for an alert about the relay's own deliveries (delivery.dead, target.*).
    @AlwaysPresent var entrupyID: String?
    let rule: String
    let channel: String
    let target: String
    let state: String
    let attempts: Int
    @AlwaysPresent var lastError: String?
    let transition: String
    let idempotencyKey: String
    let createdAt: Date
    /// Only while another attempt is coming (`pending` or `failed`).
    @AlwaysPresent var nextAttemptAt: Date?
    @AlwaysPresent var deliveredAt: Date?
    /// `expired` or `erased` once the payload is gone (it cannot be retried then).
    @AlwaysPresent var payloadRemoved: String?
    /// When its attempt records were removed by retention (`attempts` still counts them).
    @AlwaysPresent var attemptsRemovedAt: Date?
    /// While its target's breaker holds it (not attempted, no attempt counted): the target and since when.
    @AlwaysPresent var heldBy: String?
    @AlwaysPresent var heldSince: Date?
    /// While it waits for an earlier delivery for the same item and target (pending or failed): that one's ID.
    @AlwaysPresent var heldBehind: Int64?
    /// The silence that stopped it (state `silenced`), kept after a redrive.
    @AlwaysPresent var silenceID: Int64?
    /// While it is held for its rule's quiet hours (pending or failed): when the window ends.
    @AlwaysPresent var quietUntil: Date?
    /// The email group it is sent in, one email for the group; null: sent alone.
    @AlwaysPresent var group: APIDeliveryGroup?

    enum CodingKeys: String, CodingKey {
        case id, entrupyID = "entrupy_id", rule, channel, target, state, attempts, lastError = "last_error", transition
        case idempotencyKey = "idempotency_key", createdAt = "created_at", nextAttemptAt = "next_attempt_at"
        case deliveredAt = "delivered_at", payloadRemoved = "payload_removed", attemptsRemovedAt = "attempts_removed_at"
        case heldBy = "held_by", heldSince = "held_since", heldBehind = "held_behind"
        case silenceID = "silence_id", quietUntil = "quiet_until"
        case group
    }

    public init(_ delivery: DeliveryRecord) {
        id = delivery.id
        entrupyID = delivery.entrupyID
        rule = delivery.rule
        channel = delivery.channel.rawValue
        target = delivery.target
        state = delivery.state.rawValue
        attempts = delivery.attempts
        lastError = delivery.lastError
        transition = delivery.transition
        idempotencyKey = delivery.idempotencyKey
        createdAt = delivery.createdAt
        nextAttemptAt = delivery.state == .failed || delivery.state == .pending ? delivery.nextAttemptAt : nil
        deliveredAt = delivery.deliveredAt
        payloadRemoved = delivery.payloadRemoved
        attemptsRemovedAt = delivery.attemptsRemovedAt
        heldBy = delivery.heldBy
        heldSince = delivery.heldSince
        heldBehind = delivery.shownHeldBehind
        group = APIDeliveryGroup(delivery)
        silenceID = delivery.silenceID
        quietUntil = delivery.shownQuietUntil()
    }
}
