public import Foundation
public import RelayModel

/// Where the deliver handler reads a target's health before an attempt and records the
/// attempt's outcome after it (`PostgresTargetHealthStore`, shared by every replica).
public protocol TargetHealthTracking: Sendable {
    /// The target's health (nil: never failed) and the time the store goes by.
    func health(key: String) async throws -> (TargetHealth?, Date)
    /// Applies an outcome under the target's lock; a change is recorded as an operational
    /// transition with the deliveries `alerts` plans for it. Returns its health after, and the change.
    func record(_ outcome: TargetBreaker.Outcome, key: String, probe: Bool, breaker: TargetBreaker,
                alerts: @Sendable (OperationalEvent) -> [PlannedDelivery]) async throws -> (TargetHealth, TargetChange?)
}

/// Where the deliver handler records a `delivery.dead` with the alerts the rules plan for it
/// (`PostgresOperationalEvents`).
public protocol OperationalRecording: Sendable {
    @discardableResult
    func record(_ event: OperationalEvent, deliveries: [PlannedDelivery]) async throws -> [Int64]
}
