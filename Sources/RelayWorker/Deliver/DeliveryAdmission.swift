import RelayModel

/// What a target's breaker lets a delivery do now (`DeliveryHandler.admission`).
enum DeliveryAdmission: Sendable {
    /// Attempt it, as the open target's probe when `probe`; `health` is the target's row as read
    /// (nil: no row, or no breaker).
    case attempt(health: TargetHealth?, probe: Bool)
    /// Held under `target`'s key until its drain or a probe releases it: no attempt is made.
    case hold(target: String)
}
