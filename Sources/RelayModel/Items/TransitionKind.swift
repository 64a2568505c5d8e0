/// The transitions of contract section 4, each a timeline entry and a trigger for rules.
public enum TransitionKind: String, Sendable, Codable, CaseIterable {
    case itemCreated = "item.created"
    case resultChanged = "result.changed"
    case resultFinal = "result.final"
    case flagRaised = "flag.raised"
    case flagCleared = "flag.cleared"
    case flagResolved = "flag.resolved"
    /// v2's `reviewed_ok` (and any `reviewed…` value): Entrupy reviewed the flag.
    case flagReviewed = "flag.reviewed"
    /// Any other change to or from a value outside none, flagged, resolved: kept and shown,
    /// never silent.
    case flagChanged = "flag.changed"
    /// A result became `data_required`: Entrupy asks for new photos (issue 45).
    case resultRetakeRequested = "result.retake_requested"
    /// No final result past the item's threshold, after a fresh fetch (issue 45): `from` is the
    /// result, `to` the threshold (`24h`). Never diffed: the overdue check adds it.
    case resultOverdue = "result.overdue"
}
