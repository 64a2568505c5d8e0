public import Foundation

/// A transition as stored in an item's timeline: the row's ID is what makes each delivery
/// it causes unique.
public struct RecordedTransition: Sendable, Equatable {
    public var itemEventID: Int64
    public var transition: Transition
    public var occurredAt: Date

    public init(itemEventID: Int64, transition: Transition, occurredAt: Date) {
        self.itemEventID = itemEventID
        self.transition = transition
        self.occurredAt = occurredAt
    }
}
