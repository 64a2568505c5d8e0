import PostgresNIO
import RelayModel
public import RelayDatabase
public import RelayQueue

/// A delivery held by its target's breaker, written by the statement that snoozes its job:
/// no attempt is recorded and its count does not move; the delivery shows which target holds
/// it and since when (kept from the first hold), so the target's backlog can be counted,
/// probed and drained. It passed its order check to get here, so it is held behind no earlier
/// delivery (`held_behind` cleared: a probe is never picked from those).
public struct DeliveryHoldWrite: JobRecordWrite, Equatable {
    public var deliveryID: Int64
    public var target: String

    public init(deliveryID: Int64, target: String) {
        self.deliveryID = deliveryID
        self.target = target
    }

    public static let recordName = "delivery_hold"

    public static func writeText(named name: String) -> String {
        """
            ,
            \(name) AS (
                UPDATE deliveries d SET held_target = i.target, held_since = coalesce(d.held_since, now()),
                       next_attempt_at = NULL, updated_at = now(), held_behind = NULL
                FROM unnest(:\(name)_ids::bigint[], :\(name)_targets::text[]) AS i (id, target)
                WHERE d.id = i.id AND \(DeliveryAttemptWrite.attemptable("d"))
                RETURNING d.id)
            """
    }

    public static func setValues(_ batch: [DeliveryHoldWrite], named name: String, in values: inout NamedBindings) {
        values.set(name + "_ids", batch.map(\.deliveryID))
        values.set(name + "_targets", batch.map(\.target))
    }
}
