/// The transitions of contract section 4, each a timeline entry and a trigger for rules.
public enum TransitionKind: String, Sendable, Codable, CaseIterable {
    case itemCreated = "item.created"
    case resultChanged = "result.changed"
    case resultFinal = "result.final"
    case flagRaised = "flag.raised"
    case flagCleared = "flag.cleared"
    case flagResolved = "flag.resolved"
}
