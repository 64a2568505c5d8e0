import Foundation
import PostgresNIO
import RelayModel

/// Order per item and target, read with the deliveries a deliver worker loads: no statement of
/// its own. A delivery for an item waits while an earlier one for the same item and target is
/// pending or failed (`DeliveryOrderBlocker`); an operational one (no item) never does.
extension PostgresDeliveryStore {
    /// `select` (a `recordSelect` with its WHERE) with the earlier unsettled deliveries of the
    /// same item, channel and `target` column (latest first): their IDs, callback URLs and how
    /// long until their next attempts (NaN: none scheduled). Found through deliveries_item
    /// (entrupy_id, id), read from the delivery backwards: an item has a few deliveries. The
    /// state is compared so that no index on `state` can serve it (`DeliveryAttemptWrite.attemptable`);
    /// a URL is read only from those, so a delivery with nothing unsettled before it reads none.
    static func withOrderBlocker(_ select: String) -> String {
        """
        SELECT r.*, o.ids AS order_blocker_ids, o.urls AS order_blocker_urls, o.due_in AS order_blocker_due_in
        FROM (\(select)) r
        LEFT JOIN LATERAL (
            SELECT array_agg(b.id ORDER BY b.id DESC) AS ids,
                   array_agg(CASE WHEN b.channel = 'webhook' THEN coalesce(b.payload->>'url', '') ELSE '' END ORDER BY b.id DESC) AS urls,
                   array_agg(coalesce(extract(epoch FROM b.next_attempt_at - now())::float8, 'NaN') ORDER BY b.id DESC) AS due_in
            FROM deliveries b
            WHERE b.entrupy_id = r.entrupy_id AND b.id < r.id AND b.channel = r.channel AND b.target = r.target
              AND \(DeliveryAttemptWrite.attemptable("b"))
              AND \(mayHold("b", "r"))) o ON true
        """
    }

    /// That the earlier `b` may hold `r`: it is of the same rule (order is kept within a rule), or
    /// it does not wait for a time of its own choosing: its group's (a grouped email, sent when
    /// its group is due, up to a day away) or its rule's quiet hours. An email's `target` is its
    /// recipients whatever the rule, so an urgent rule's email would otherwise wait for another
    /// rule's digest or night. Nor does a member of `r`'s own email group: the group's one email
    /// lists both, in order (held, `r` would be left out of it and sent alone after). Read only
    /// from the few unsettled rows the lateral already found (`r`'s payload only for a grouped `b`).
    static func mayHold(_ b: String, _ r: String) -> String {
        """
        (\(b).rule = \(r).rule OR (coalesce(\(b).quiet_until <= now(), true) AND NOT coalesce(\(b).payload ? 'group', false)))
                      AND NOT coalesce(\(b).payload ? 'group' AND \(b).rule = \(r).rule AND \(b).action_index = \(r).action_index
                                       AND \(b).payload->'group'->'key' = \(r).payload::jsonb->'group'->'key', false)
        """
    }

    /// The order columns of a row, when it has them: `held_behind` (every `recordSelect`) and the
    /// candidates (`withOrderBlocker`). Found by name, in one pass over the row's cells.
    static func readOrder(from row: PostgresRow, into record: inout DeliveryRecord) throws {
        var ids: [Int64]?, urls: [String]?, dueIn: [Double]?
        for cell in row {
            switch cell.columnName {
            case "held_behind": record.heldBehind = try cell.decode(Int64?.self)
            case "order_blocker_ids": ids = try cell.decode([Int64]?.self)
            case "order_blocker_urls": urls = try cell.decode([String]?.self)
            case "order_blocker_due_in": dueIn = try cell.decode([Double]?.self)
            default: continue
            }
        }
        guard let ids, let urls, let dueIn, ids.count == urls.count, ids.count == dueIn.count else { return }
        let candidates = ids.indices.map { index in
            DeliveryOrderBlocker.Candidate(id: ids[index], url: urls[index],
                                           dueIn: dueIn[index].isNaN ? nil : .milliseconds(Int64((dueIn[index] * 1000).rounded())))
        }
        record.orderBlocker = DeliveryOrderBlocker.first(among: candidates, for: record)
    }
}
