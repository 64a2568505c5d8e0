public import Foundation

/// A stored delivery.
public struct DeliveryRecord: Sendable, Equatable {
    public var id: Int64
    /// The item transition that caused it; nil for an operational one (`operationalEventID`).
    public var itemEventID: Int64?
    public var entrupyID: String?
    /// The operational transition (delivery.dead, target.*) that caused it, if that is its cause.
    public var operationalEventID: Int64?
    public var rule: String
    public var actionIndex: Int
    public var channel: DeliveryChannel
    public var target: String
    /// What it sends; nil when the stored payload lacks what its channel needs.
    public var payload: DeliveryPayload?
    public var signingKeyID: String?
    public var idempotencyKey: String
    public var state: DeliveryState
    /// Attempts made so far, across redrives.
    public var attempts: Int
    /// Attempts made before the latest redrive: the retry schedule counts from here.
    public var scheduleBase: Int
    public var lastError: String?
    public var nextAttemptAt: Date?
    public var createdAt: Date
    public var deliveredAt: Date?
    /// The transition that caused it.
    public var transition: String
    /// `expired` or `erased` once the payload is gone: it can no longer be sent.
    public var payloadRemoved: String?
    /// When its attempt rows were removed (retention); its `attempts` count stays.
    public var attemptsRemovedAt: Date?
    /// An alert about the relay's own deliveries: never held by a breaker, never counted in one,
    /// and never the cause of another `delivery.dead`.
    public var isOperational: Bool { operationalEventID != nil }

    /// Where a list ordered newest first by (creation time, ID) continues after this delivery.
    public var pageCursor: PageCursor {
        PageCursor(time: Int64((createdAt.timeIntervalSince1970 * 1_000_000).rounded()), key: String(id))
    }

    /// While its target's breaker holds it: the target (`TargetKey`) and since when.
    public var heldBy: String?
    public var heldSince: Date?
    /// The silence that stopped it (`silenced`); kept after a redrive, which then sends it anyway.
    public var silenceID: Int64?
    /// Held for its rule's quiet hours until then (shown while in the future and still unsettled).
    public var quietUntil: Date?
    /// While it is held behind an earlier delivery for the same item and target (order per item
    /// and target): that delivery's ID. Released when that one is delivered or dead.
    public var heldBehind: Int64?
    /// What the deliver handler's load found it must wait for (`DeliveryOrderBlocker`); nil elsewhere.
    public var orderBlocker: DeliveryOrderBlocker?

    public init(id: Int64, itemEventID: Int64?, entrupyID: String?, operationalEventID: Int64? = nil, rule: String, actionIndex: Int, channel: DeliveryChannel, target: String, payload: DeliveryPayload? = nil, signingKeyID: String? = nil, idempotencyKey: String, state: DeliveryState, attempts: Int, scheduleBase: Int, lastError: String? = nil, nextAttemptAt: Date? = nil, createdAt: Date, deliveredAt: Date? = nil, transition: String, payloadRemoved: String? = nil, attemptsRemovedAt: Date? = nil,
                heldBy: String? = nil, heldSince: Date? = nil, silenceID: Int64? = nil, quietUntil: Date? = nil, heldBehind: Int64? = nil, orderBlocker: DeliveryOrderBlocker? = nil) {
        self.id = id
        self.itemEventID = itemEventID
        self.entrupyID = entrupyID
        self.operationalEventID = operationalEventID
        self.rule = rule
        self.actionIndex = actionIndex
        self.channel = channel
        self.target = target
        self.payload = payload
        self.signingKeyID = signingKeyID
        self.idempotencyKey = idempotencyKey
        self.state = state
        self.attempts = attempts
        self.scheduleBase = scheduleBase
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
        self.transition = transition
        self.payloadRemoved = payloadRemoved
        self.attemptsRemovedAt = attemptsRemovedAt
        self.heldBy = heldBy
        self.heldSince = heldSince
        self.heldBehind = heldBehind
        self.orderBlocker = orderBlocker
        self.silenceID = silenceID
        self.quietUntil = quietUntil
    }
}
