import PostgresNIO
import RelayModel
public import RelayDatabase
public import RelayQueue

/// A delivery put off by its target's rate limit, written by the statement that snoozes its
/// job: no attempt is recorded; its next attempt time is when the job wakes (about its
/// appointment, or the throttle's longest wait), so the API and the console show it.
public struct DeliveryThrottleWrite: JobRecordWrite, Equatable {
    public var deliveryID: Int64
    public var wakeIn: Duration

    public init(deliveryID: Int64, wakeIn: Duration) {
        self.deliveryID = deliveryID
        self.wakeIn = wakeIn
    }

    public static let recordName = "delivery_throttle"

    public static func writeText(named name: String) -> String {
        """
            ,
            \(name) AS (
                UPDATE deliveries d SET next_attempt_at = now() + i.wake_ms * interval '1 millisecond', updated_at = now()
                FROM unnest(:\(name)_ids::bigint[], :\(name)_wake_ms::bigint[]) AS i (id, wake_ms)
                WHERE d.id = i.id AND \(DeliveryAttemptWrite.attemptable("d"))
                RETURNING d.id)
            """
    }

    public static func setValues(_ batch: [DeliveryThrottleWrite], named name: String, in values: inout NamedBindings) {
        values.set(name + "_ids", batch.map(\.deliveryID))
        values.set(name + "_wake_ms", batch.map(\.wakeIn.milliseconds))
    }
}
