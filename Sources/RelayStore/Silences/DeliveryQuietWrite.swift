public import Foundation
import PostgresNIO
import RelayModel
public import RelayDatabase
public import RelayQueue

/// A delivery held for its rule's quiet hours, written by the statement that snoozes its job:
/// no attempt is recorded; the delivery shows until when it is held (`quiet_until`, its next
/// attempt time too).
public struct DeliveryQuietWrite: JobRecordWrite, Equatable {
    public var deliveryID: Int64
    public var until: Date

    public init(deliveryID: Int64, until: Date) {
        self.deliveryID = deliveryID
        self.until = until
    }

    public static let recordName = "delivery_quiet"

    public static func writeText(named name: String) -> String {
        """
            ,
            \(name) AS (
                UPDATE deliveries d SET quiet_until = i.until, next_attempt_at = i.until, updated_at = now()
                FROM unnest(:\(name)_ids::bigint[], :\(name)_untils::timestamptz[]) AS i (id, until)
                WHERE d.id = i.id AND \(DeliveryAttemptWrite.attemptable("d"))
                RETURNING d.id)
            """
    }

    public static func setValues(_ batch: [DeliveryQuietWrite], named name: String, in values: inout NamedBindings) {
        values.set(name + "_ids", batch.map(\.deliveryID))
        values.set(name + "_untils", batch.map(\.until))
    }
}
