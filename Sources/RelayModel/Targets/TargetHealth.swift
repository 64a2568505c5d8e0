public import Foundation

/// One target's health as stored (`delivery_targets`): its state, since when, and what the
/// breaker counts. A target never attempted or never failed has no row: `healthy(key:)`.
public struct TargetHealth: Sendable, Equatable {
    /// `disabledBy` when the breaker disabled the target (after failing too long), not a person.
    public static let breakerName = "breaker"

    public var id: Int64?
    public var key: String
    public var state: TargetState
    public var stateSince: Date
    /// The first failure of the current streak; nil while the target works.
    public var failingSince: Date?
    public var consecutiveFailures: Int
    /// The failure-rate window: it starts at a failure and counts every attempt after it.
    public var windowStartedAt: Date?
    public var windowAttempts: Int
    public var windowFailures: Int
    public var lastError: String?
    public var lastFailureAt: Date?
    public var lastSuccessAt: Date?
    /// While open: the wait before the next probe (doubling), and when it is due.
    public var probeWait: Duration
    public var nextProbeAt: Date?
    /// The delivery probing now, and until when its claim holds.
    public var probeDeliveryID: Int64?
    public var probeUntil: Date?
    /// Who disabled it: `breaker`, or the operator's name.
    public var disabledBy: String?

    public init(id: Int64? = nil, key: String, state: TargetState = .healthy, stateSince: Date, failingSince: Date? = nil,
                consecutiveFailures: Int = 0, windowStartedAt: Date? = nil, windowAttempts: Int = 0, windowFailures: Int = 0,
                lastError: String? = nil, lastFailureAt: Date? = nil, lastSuccessAt: Date? = nil, probeWait: Duration = .zero,
                nextProbeAt: Date? = nil, probeDeliveryID: Int64? = nil, probeUntil: Date? = nil, disabledBy: String? = nil) {
        self.id = id
        self.key = key
        self.state = state
        self.stateSince = stateSince
        self.failingSince = failingSince
        self.consecutiveFailures = consecutiveFailures
        self.windowStartedAt = windowStartedAt
        self.windowAttempts = windowAttempts
        self.windowFailures = windowFailures
        self.lastError = lastError
        self.lastFailureAt = lastFailureAt
        self.lastSuccessAt = lastSuccessAt
        self.probeWait = probeWait
        self.nextProbeAt = nextProbeAt
        self.probeDeliveryID = probeDeliveryID
        self.probeUntil = probeUntil
        self.disabledBy = disabledBy
    }

    public static func healthy(key: String, at now: Date) -> TargetHealth {
        TargetHealth(key: key, stateSince: now)
    }

    /// Healthy with nothing counted: a success changes nothing worth writing.
    public var isClean: Bool {
        state == .healthy && consecutiveFailures == 0 && windowFailures == 0
    }
}
