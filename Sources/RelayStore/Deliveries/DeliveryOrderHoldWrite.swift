import PostgresNIO
import RelayModel
public import RelayDatabase
public import RelayQueue

/// A delivery held behind an earlier one for the same item and target (order per item and
/// target), written by the statement that snoozes its job: no attempt is recorded and its count
/// does not move; `held_behind` names the earlier delivery, and `next_attempt_at` says when the
/// job looks again. Written only while that one is still pending or failed: when it was settled
/// meanwhile (by a statement before this one, in this batch's transaction or another), nothing
/// is held and the job's short recheck sends it. The statement that settles the earlier one
/// clears `held_behind` and wakes the job (`DeliveryAttemptWrite`).
public struct DeliveryOrderHoldWrite: JobRecordWrite, Equatable {
    public var deliveryID: Int64
    /// The earlier delivery it waits for.
    public var behind: Int64
    /// When its job looks again.
    public var recheckIn: Duration

    public init(deliveryID: Int64, behind: Int64, recheckIn: Duration) {
        self.deliveryID = deliveryID
        self.behind = behind
        self.recheckIn = recheckIn
    }

    public static let recordName = "delivery_order_hold"

    public static func writeText(named name: String) -> String {
        """
            ,
            \(name) AS (
                UPDATE deliveries d SET held_behind = i.behind, next_attempt_at = now() + i.recheck_ms * interval '1 millisecond'
                FROM unnest(:\(name)_ids::bigint[], :\(name)_behind::bigint[], :\(name)_recheck_ms::bigint[]) AS i (id, behind, recheck_ms)
                WHERE d.id = i.id AND \(DeliveryAttemptWrite.attemptable("d"))
                  AND EXISTS (SELECT 1 FROM deliveries b WHERE b.id = i.behind AND \(DeliveryAttemptWrite.attemptable("b")))
                RETURNING d.id)
            """
    }

    public static func setValues(_ batch: [DeliveryOrderHoldWrite], named name: String, in values: inout NamedBindings) {
        values.set(name + "_ids", batch.map(\.deliveryID))
        values.set(name + "_behind", batch.map(\.behind))
        values.set(name + "_recheck_ms", batch.map(\.recheckIn.milliseconds))
    }
}
