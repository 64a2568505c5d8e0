public import Foundation

/// A target as `targets list`, the API and the console show it: its health and its backlog.
public struct TargetSummary: Sendable, Equatable {
    public var health: TargetHealth
    /// Deliveries held for it now.
    public var held: Int
    /// The oldest of them was held since.
    public var oldestHeldSince: Date?
    /// Its rate limit, from the rules file's `targets:` list (its origin's, or smtp's); nil: none.
    public var rateLimit: TargetRateLimit?

    public init(health: TargetHealth, held: Int, oldestHeldSince: Date?, rateLimit: TargetRateLimit? = nil) {
        self.health = health
        self.held = held
        self.oldestHeldSince = oldestHeldSince
        self.rateLimit = rateLimit
    }
}
