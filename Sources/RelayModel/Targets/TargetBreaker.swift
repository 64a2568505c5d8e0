public import Foundation

/// The circuit breaker's decisions, pure: whether a delivery may be attempted, and what an
/// attempt's outcome does to its target's health. The store applies them under the target
/// row's lock, so every replica sees one state.
public struct TargetBreaker: Sendable {
    public var policy: BreakerPolicy

    public init(policy: BreakerPolicy) {
        self.policy = policy
    }

    public enum Outcome: Sendable, Equatable {
        case success
        case failure(String)
        /// The attempt failed for reasons of its own (`FailureCause.delivery`): nothing is
        /// counted. A probe's claim is released, and the next probe is due after the same
        /// wait (not doubled): the target said nothing about its health.
        case inconclusive
    }

    public func admission(_ health: TargetHealth?, deliveryID: Int64, now: Date) -> TargetAdmission {
        guard let health else { return .attempt }
        switch health.state {
        case .healthy: return .attempt
        case .disabled: return .hold
        case .open:
            if health.probeDeliveryID == deliveryID, let until = health.probeUntil, until > now { return .probe }
            return .hold
        }
    }

    /// The health after an attempt, and the change to tell of, if any. `probe`: the attempt
    /// was the target's probe (a failed probe doubles the wait before the next).
    public func record(_ outcome: Outcome, on health: TargetHealth, probe: Bool, now: Date) -> (TargetHealth, TargetChange?) {
        switch outcome {
        case .inconclusive:
            return (Self.probeReleased(health, probe: probe, now: now), nil)
        case .success:
            return Self.afterSuccess(windowed(health, now: now), now: now)
        case .failure(let error):
            return afterFailure(error, windowed(health, now: now), probe: probe, now: now)
        }
    }

    /// The health with its failure window emptied once the window has passed.
    func windowed(_ health: TargetHealth, now: Date) -> TargetHealth {
        var next = health
        if let started = next.windowStartedAt, now.timeIntervalSince(started) > policy.window.timeInterval {
            next.windowStartedAt = nil
            next.windowAttempts = 0
            next.windowFailures = 0
        }
        return next
    }

    /// A success closes an open breaker; a disabled target stays so (the operator decides, not
    /// one success of an attempt under way when it was disabled).
    static func afterSuccess(_ health: TargetHealth, now: Date) -> (TargetHealth, TargetChange?) {
        var next = health
        next.lastSuccessAt = now
        if next.windowStartedAt != nil { next.windowAttempts += 1 }
        switch next.state {
        case .disabled:
            return (next, nil)
        case .healthy:
            next.consecutiveFailures = 0
            next.failingSince = nil
            return (next, nil)
        case .open:
            return (closed(next, now: now), .recovered)
        }
    }

    /// A failure is counted; it may trip a healthy target's breaker, disable a target failing
    /// for too long, or (a failed probe) double the wait before the next probe.
    func afterFailure(_ error: String, _ health: TargetHealth, probe: Bool, now: Date) -> (TargetHealth, TargetChange?) {
        var next = health
        next.lastError = error
        next.lastFailureAt = now
        next.failingSince = next.failingSince ?? now
        next.consecutiveFailures += 1
        if next.windowStartedAt == nil { next.windowStartedAt = now }
        next.windowAttempts += 1
        next.windowFailures += 1
        switch next.state {
        case .disabled:
            return (next, nil)
        case .healthy:
            guard tripped(next) else { return (next, nil) }
            return (opened(next, now: now), .opened)
        case .open:
            if let disableAfter = policy.disableAfter, let since = next.failingSince,
               now.timeIntervalSince(since) >= disableAfter.timeInterval {
                return (Self.disabled(next, by: TargetHealth.breakerName, now: now), .disabled)
            }
            guard probe else { return (next, nil) }
            next.probeWait = min(next.probeWait * 2, policy.longestProbeWait)
            next.nextProbeAt = now.addingTimeInterval(next.probeWait.timeInterval)
            next.probeDeliveryID = nil
            next.probeUntil = nil
            return (next, nil)
        }
    }

    /// The breaker trips: deliveries are held, and the first probe is due after `firstProbe`.
    func opened(_ health: TargetHealth, now: Date) -> TargetHealth {
        var next = health
        next.state = .open
        next.stateSince = now
        next.probeWait = policy.firstProbe
        next.nextProbeAt = now.addingTimeInterval(policy.firstProbe.timeInterval)
        next.probeDeliveryID = nil
        next.probeUntil = nil
        return next
    }

    /// An operator's enable: healthy, nothing counted; the held deliveries drain.
    public static func enabled(_ health: TargetHealth, now: Date) -> TargetHealth {
        closed(health, now: now)
    }

    /// An operator's disable.
    public static func disabled(_ health: TargetHealth, by operatorName: String, now: Date) -> TargetHealth {
        var next = health
        if next.state != .disabled { next.stateSince = now }
        next.state = .disabled
        next.disabledBy = operatorName
        next.nextProbeAt = nil
        next.probeDeliveryID = nil
        next.probeUntil = nil
        return next
    }

    /// An inconclusive attempt: a probe's claim released, the next probe after the same wait.
    static func probeReleased(_ health: TargetHealth, probe: Bool, now: Date) -> TargetHealth {
        guard probe, health.state == .open else { return health }
        var next = health
        next.nextProbeAt = now.addingTimeInterval(next.probeWait.timeInterval)
        next.probeDeliveryID = nil
        next.probeUntil = nil
        return next
    }

    func tripped(_ health: TargetHealth) -> Bool {
        if health.consecutiveFailures >= policy.consecutiveFailures { return true }
        guard health.windowAttempts >= policy.minimumAttempts else { return false }
        return Double(health.windowFailures) >= policy.failureRate * Double(health.windowAttempts)
    }

    static func closed(_ health: TargetHealth, now: Date) -> TargetHealth {
        var next = health
        next.state = .healthy
        next.stateSince = now
        next.failingSince = nil
        next.consecutiveFailures = 0
        next.windowStartedAt = nil
        next.windowAttempts = 0
        next.windowFailures = 0
        next.probeWait = .zero
        next.nextProbeAt = nil
        next.probeDeliveryID = nil
        next.probeUntil = nil
        next.disabledBy = nil
        return next
    }
}
