public import Foundation

/// A target as `targets list`, the API and the console show it: its health and its backlog.
public struct TargetSummary: Sendable, Equatable {
    public var health: TargetHealth
    /// Deliveries held for it now.
    public var held: Int
    /// The oldest of them was held since.
    public var oldestHeldSince: Date?

    public init(health: TargetHealth, held: Int, oldestHeldSince: Date?) {
        self.health = health
        self.held = held
        self.oldestHeldSince = oldestHeldSince
    }
}
