import PostgresNIO

extension PostgresReconcileStore {
    /// What a reconcile's statement answers (`StoreStatement`, `StoreWithDeliveriesStatement`, `RecordStaleStatement`).
    struct Written: Sendable {
        /// 1 when the item was written (or the stale fetch recorded), 0 when the write was refused.
        var items: Int64
        /// Other queued webhook events about the item that the fetch answered too.
        var covered: Int64
        /// New deliveries.
        var deliveries: Int64
        /// The IDs and arguments of their `deliver` jobs inserted leased to the statement's
        /// worker (`JobInsert.adopt`).
        var leasedIDs: [Int64]
        var leasedArgs: [String]
        /// The write was refused because the item names an erased key and the change has its
        /// people fields (`ErasedSubjectFound`).
        var refusedForErasure: Bool
        /// The write was refused because the submitter's ID the deliveries were rendered with
        /// is no longer the SDK users mirror's (`SubmitterLookup`).
        var submitterChanged: Bool

        init(_ row: PostgresRow) throws {
            (items, covered, deliveries, leasedIDs, leasedArgs, refusedForErasure, submitterChanged)
                = try row.decode((Int64, Int64, Int64, [Int64], [String], Bool, Bool).self)
        }
    }
}
