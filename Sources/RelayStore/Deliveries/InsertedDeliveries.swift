import RelayQueue

/// What inserting planned deliveries did: how many were new, and their `deliver` jobs that
/// were inserted leased to the caller's worker (empty without a lease).
public struct InsertedDeliveries: Sendable, Equatable {
    public var count: Int
    public var leasedJobs: [ClaimedJob]

    public init(count: Int, leasedJobs: [ClaimedJob]) {
        self.count = count
        self.leasedJobs = leasedJobs
    }
}
