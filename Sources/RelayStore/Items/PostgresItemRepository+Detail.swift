import Foundation
import PostgresNIO
import RelayCore

extension PostgresItemRepository {
    /// The item named by an Entrupy ID, else the latest one with that customer item ID.
    public func detail(_ id: String) async throws -> ItemDetail? {
        let rows = try await client.query("""
            SELECT entrupy_id, customer_item_id, result, result_final, flag, brand, model, category, username,
                   certificate_url, submitted_at, first_seen_at, updated_at, fetched_at
            FROM items WHERE entrupy_id = \(id) OR customer_item_id = \(id)
            ORDER BY (entrupy_id = \(id)) DESC, submitted_at DESC NULLS LAST, first_seen_at DESC LIMIT 1
            """, logger: logger)
        var found: ItemDetail?
        for try await r in rows.decode((String, String?, String?, Bool, String, String?, String?, String?, String?, String?, Date?, Date, Date, Date).self) {
            found = ItemDetail(entrupyID: r.0, customerItemID: r.1, result: r.2, resultFinal: r.3, flag: r.4, brand: r.5, model: r.6,
                               category: r.7, username: r.8, certificateURL: r.9, submittedAt: r.10, firstSeenAt: r.11,
                               updatedAt: r.12, fetchedAt: r.13, timeline: [], webhooks: [])
        }
        guard var item = found else { return nil }

        let timeline = try await client.query("""
            SELECT kind, occurred_at, from_value, to_value, source, webhook_event_id
            FROM item_events WHERE entrupy_id = \(item.entrupyID) ORDER BY occurred_at, id
            """, logger: logger)
        for try await (kind, at, from, to, source, eventID) in timeline.decode((String, Date, String?, String?, String, Int64?).self) {
            item.timeline.append(.init(kind: kind, at: at, from: from, to: to, source: source, webhookEventID: eventID))
        }

        let webhooks = try await client.query(WebhookEventRecord.select("""
            WHERE entrupy_id = \(item.entrupyID)
               OR (entrupy_id IS NULL AND customer_item_id IS NOT NULL AND customer_item_id = \(item.customerItemID))
            ORDER BY received_at, id
            """), logger: logger)
        item.webhooks = try await WebhookEventRecord.records(from: webhooks)
        return item
    }
}
