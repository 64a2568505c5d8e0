/// A delivery target's health, shared by every replica through PostgreSQL.
public enum TargetState: String, Sendable, Codable, CaseIterable {
    /// Deliveries are attempted as they come.
    case healthy
    /// Failing: deliveries are held (not attempted, no attempt counted) while one probe at a
    /// time tries the target on a growing interval. A success closes it again.
    case open
    /// Failed for longer than `target_disable_after_hours`, or disabled by an operator:
    /// deliveries stay held, nothing probes, until an operator enables it.
    case disabled
}
