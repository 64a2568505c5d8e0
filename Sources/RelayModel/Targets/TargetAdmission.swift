/// What a delivery due now may do about its target's health.
public enum TargetAdmission: Sendable, Equatable {
    /// Attempt it: the target is healthy.
    case attempt
    /// Attempt it as the target's one probe: its outcome closes the breaker or keeps it open.
    case probe
    /// Do not attempt it and count no attempt: the target is open or disabled.
    case hold
}
