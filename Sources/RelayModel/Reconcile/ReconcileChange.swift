public import Foundation

/// Everything one reconcile decided, as values for the store to commit in one transaction:
/// the fetched item, the transitions diffed against `basedOn`, and the deliveries planned
/// for them. A change whose answer is older than the stored one is `stale`: only the fetch
/// is recorded.
public struct ReconcileChange: Sendable, Equatable {
    public var item: EntrupyItem
    /// When the answer was requested, by the database's clock.
    public var observedAt: Date
    public var source: ReconcileSource
    /// The stored state the transitions were computed against (nil: the item is new).
    public var basedOn: StoredItemState?
    public var transitions: [Transition]
    public var deliveries: [PlannedDelivery]
    public var stale: Bool
    /// `item` is stored without its people fields (its submitter, ID or customer item ID was
    /// erased), and so are its webhooks' bodies. Otherwise the commit is refused when one of the
    /// item's keys was erased (`ErasedSubjectFound`).
    public var peopleErased: Bool
    /// The submitter's ID the deliveries were rendered with, when they needed one: the commit
    /// is refused if the SDK users mirror now says otherwise.
    public var submitter: SubmitterLookup?

    public init(item: EntrupyItem, observedAt: Date, source: ReconcileSource, basedOn: StoredItemState?,
                transitions: [Transition], deliveries: [PlannedDelivery], stale: Bool = false, peopleErased: Bool = false) {
        self.item = item
        self.observedAt = observedAt
        self.source = source
        self.basedOn = basedOn
        self.transitions = transitions
        self.deliveries = deliveries
        self.stale = stale
        self.peopleErased = peopleErased
    }
}
