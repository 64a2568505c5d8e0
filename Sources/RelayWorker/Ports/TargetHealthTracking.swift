public import Foundation
public import RelayCore

/// Where the deliver handler reads a target's health before an attempt and records the
/// attempt's outcome after it (`PostgresTargetHealthStore`, shared by every replica).
public protocol TargetHealthTracking: Sendable {
    /// The target's health (nil: never failed) and the time the store goes by.
    func health(key: String) async throws -> (TargetHealth?, Date)
    /// Applies an outcome under the target's lock; returns its health after, and the change.
    func record(_ outcome: TargetBreaker.Outcome, key: String, probe: Bool,
                breaker: TargetBreaker) async throws -> (TargetHealth, TargetChange?)
}
