/// Which history of the database a change-feed cursor was given out in. Transaction IDs, the
/// feed's order, count within one history only: a dump restored into another PostgreSQL
/// cluster, a point-in-time recovery or a promoted standby numbers its new transactions again
/// from wherever it stands, so a cursor from before would go on past transitions it never saw.
/// The history is the cluster's system identifier (`pg_control_system()`: a new cluster has
/// another) and its timeline (a recovery to a point in time, or a promotion, starts a new one).
/// Pure.
public struct ChangeFeedHistory: Sendable, Hashable, CustomStringConvertible {
    public var system: UInt64
    public var timeline: UInt32

    public init(system: UInt64, timeline: UInt32) {
        self.system = system
        self.timeline = timeline
    }

    /// PostgreSQL shows the system identifier as a signed `bigint`; the cursor keeps its 64 bits unsigned.
    public init(systemIdentifier: Int64, timeline: UInt32) {
        self.init(system: UInt64(bitPattern: systemIdentifier), timeline: timeline)
    }

    /// `<system>.<timeline>`, the first half of a cursor's text.
    public var description: String { "\(system).\(timeline)" }
}
