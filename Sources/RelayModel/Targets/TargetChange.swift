/// A change of a target's state worth telling people about: each is an operational
/// transition (`target.opened`, ...) the rules can match.
public enum TargetChange: String, Sendable, Equatable, CaseIterable {
    case opened = "target.opened"
    case disabled = "target.disabled"
    case recovered = "target.recovered"
}
