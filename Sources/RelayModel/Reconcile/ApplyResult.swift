/// What storing a fetched item changed.
public struct ApplyResult: Sendable, Equatable {
    /// Transitions appended to the timeline (empty when nothing changed).
    public var transitions: [Transition]
    /// True when a newer observation was already stored and this one was ignored.
    public var stale: Bool
    /// Deliveries the transitions caused (created in the same transaction).
    public var deliveries: Int
    /// The item's Entrupy ID as stored.
    public var entrupyID: String
    /// Whether the commit ended the fetch lease it was given (`ReconcileStoring.commit`'s
    /// `releasing`); false when it was given none, or the release failed (the caller releases it).
    public var leaseEnded = false

    public init(transitions: [Transition], stale: Bool, deliveries: Int = 0, entrupyID: String = "") {
        self.transitions = transitions
        self.stale = stale
        self.deliveries = deliveries
        self.entrupyID = entrupyID
    }
}
