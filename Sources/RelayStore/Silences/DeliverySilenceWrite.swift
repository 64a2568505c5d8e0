import PostgresNIO
import RelayModel
public import RelayDatabase
public import RelayQueue

/// A delivery stopped by a silence, written by the statement that completes its job: the
/// delivery becomes `silenced` and names the silence; no attempt is recorded; what was held
/// behind it (order per item and target) is released, as for a delivery settled by an attempt. Applies only
/// while the delivery is still pending or failed (a redrive meanwhile wins).
public struct DeliverySilenceWrite: JobRecordWrite, Equatable {
    public var deliveryID: Int64
    public var silenceID: Int64

    public init(deliveryID: Int64, silenceID: Int64) {
        self.deliveryID = deliveryID
        self.silenceID = silenceID
    }

    public static let recordName = "delivery_silence"

    public static func writeText(named name: String) -> String {
        """
            ,
            \(name)_silenced AS (
                UPDATE deliveries d SET state = \(DeliveryState.silenced.sqlLiteral), silence_id = i.silence_id,
                       next_attempt_at = NULL, held_since = NULL, updated_at = now()
                FROM unnest(:\(name)_ids::bigint[], :\(name)_silences::bigint[]) AS i (id, silence_id)
                WHERE d.id = i.id AND \(DeliveryAttemptWrite.attemptable("d"))
                RETURNING d.id),\(DeliveryAttemptWrite.releaseText(named: name, settled: "SELECT id FROM \(name)_silenced",
                                                               attempted: "SELECT unnest(:\(name)_ids::bigint[])"))
            \(name) AS (SELECT id FROM \(name)_silenced)
            """
    }

    public static func setValues(_ batch: [DeliverySilenceWrite], named name: String, in values: inout NamedBindings) {
        values.set(name + "_ids", batch.map(\.deliveryID))
        values.set(name + "_silences", batch.map(\.silenceID))
    }
}
