import Foundation
import PostgresNIO
public import RelayModel

extension PostgresItemStore {
    /// The stored item (Entrupy ID, else customer item ID) with the latest transition in its
    /// timeline: what `rules test` evaluates.
    public func latestTransition(_ id: String) async throws -> (item: EntrupyItem, transition: RecordedTransition)? {
        let rows = try await client.query("""
            SELECT i.raw::text, e.id, e.kind, e.from_value, e.to_value, e.occurred_at
            FROM items i JOIN LATERAL (
                SELECT id, kind, from_value, to_value, occurred_at FROM item_events
                WHERE entrupy_id = i.entrupy_id ORDER BY occurred_at DESC, id DESC LIMIT 1) e ON true
            WHERE i.entrupy_id = \(id) OR i.customer_item_id = \(id)
            ORDER BY (i.entrupy_id = \(id)) DESC, i.submitted_at DESC NULLS LAST, i.first_seen_at DESC LIMIT 1
            """, logger: logger)
        for try await (raw, eventID, kind, from, to, at) in rows.decode((String, Int64, String, String?, String?, Date).self) {
            guard let json = JSONValue(jsonText: raw), let item = try? EntrupyItemParser.parse(json),
                  let kind = TransitionKind(rawValue: kind) else { return nil }
            return (item, RecordedTransition(itemEventID: eventID, transition: Transition(kind: kind, from: from, to: to), occurredAt: at))
        }
        return nil
    }
}
