import Foundation
import PostgresNIO
public import RelayCore

extension PostgresItemRepository {
    /// The item named by an Entrupy ID, else the latest one with that customer item ID,
    /// with its whole history.
    public func detail(_ id: String) async throws -> ItemDetail? {
        let rows = try await client.query("""
            SELECT \(unescaped: ItemSummary.selectList), model, certificate_url, first_seen_at, fetched_at, raw::text
            FROM items WHERE entrupy_id = \(id) OR customer_item_id = \(id)
            ORDER BY (entrupy_id = \(id)) DESC, submitted_at DESC NULLS LAST, first_seen_at DESC LIMIT 1
            """, logger: logger)
        var found: ItemDetail?
        for try await r in rows.decode((String, String?, String?, Bool, String, String?, String?, String?, Date?, Date, Date,
                                        String?, String?, Date, Date, String).self) {
            found = ItemDetail(
                item: ItemSummary(row: (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8, r.9, r.10)),
                model: r.11, certificateURL: r.12, firstSeenAt: r.13, fetchedAt: r.14,
                transitions: [], reconciliations: [], webhooks: [], deliveries: [])
            // The raw item was stored from a parsed answer, so it parses; if not, no details.
            found?.details = (try? JSONValue.parse(Array(r.15.utf8))).map(ItemDetails.read) ?? ItemDetails()
        }
        guard var item = found else { return nil }
        let entrupyID = item.entrupyID

        let timeline = try await client.query("""
            SELECT kind, occurred_at, from_value, to_value, source, webhook_event_id
            FROM item_events WHERE entrupy_id = \(entrupyID) ORDER BY occurred_at, id
            """, logger: logger)
        for try await (kind, at, from, to, source, eventID) in timeline.decode((String, Date, String?, String?, String, Int64?).self) {
            item.transitions.append(.init(kind: kind, at: at, from: from, to: to, source: source, webhookEventID: eventID))
        }

        let fetches = try await client.query("""
            SELECT at, source, outcome, transitions, webhook_event_id, note
            FROM reconciliations WHERE entrupy_id = \(entrupyID) ORDER BY id
            """, logger: logger)
        for try await (at, source, outcome, count, eventID, note) in fetches.decode((Date, String, String, Int, Int64?, String?).self) {
            item.reconciliations.append(.init(at: at, source: source, outcome: outcome, transitions: count, webhookEventID: eventID,
                                              note: note))
        }

        let webhooks = try await client.query(WebhookEventRecord.select("""
            WHERE entrupy_id = \(entrupyID)
               OR (entrupy_id IS NULL AND customer_item_id IS NOT NULL AND customer_item_id = \(item.item.customerItemID))
            ORDER BY received_at, id
            """), logger: logger)
        item.webhooks = try await WebhookEventRecord.records(from: webhooks)

        let noted = try await client.query("""
            SELECT id, event_type, received_at, body, body_removed FROM webhook_events
            WHERE entrupy_id = \(entrupyID) AND event_type = ANY(\(Array(WebhookNote.eventTypes))::text[])
            ORDER BY received_at, id LIMIT 500
            """, logger: logger)
        for try await (id, type, at, body, removed) in noted.decode((Int64, String, Date, ByteBuffer?, String?).self) {
            // A message whose body is gone still has its line, saying so.
            guard let body else {
                item.notes.append(ItemNote(kind: type, at: at, text: "body \(removed ?? "removed")", webhookEventID: id))
                continue
            }
            guard let text = WebhookNote.read(eventType: type, body: Array(body.readableBytesView)) else { continue }
            item.notes.append(ItemNote(kind: type, at: at, text: text, webhookEventID: id))
        }
        if let username = item.item.username {
            let people = try await client.query("""
                SELECT unique_user_id, email, first_name, last_name FROM sdk_users WHERE username = \(username)
                ORDER BY last_authorized_at DESC LIMIT 1
                """, logger: logger)
            for try await (id, email, first, last) in people.decode((String, String?, String?, String?).self) {
                item.submitter = Submitter(uniqueUserID: id, email: email, firstName: first, lastName: last)
            }
        }
        if let customerItemID = item.item.customerItemID {
            let others = try await client.query("""
                SELECT \(unescaped: ItemSummary.selectList) FROM items
                WHERE customer_item_id = \(customerItemID) AND entrupy_id <> \(entrupyID)
                ORDER BY listed_at DESC, entrupy_id DESC LIMIT 100
                """, logger: logger)
            for try await row in others.decode(ItemSummary.Row.self) { item.resubmissions.append(ItemSummary(row: row)) }
        }

        let deliveries = PostgresDeliveryRepository(client: client, logger: logger)
        let records = try await deliveries.list(DeliverySearch(item: entrupyID), limit: 1000)
        let attempts = try await deliveries.attempts(entrupyID: entrupyID)
        item.deliveries = records.reversed().map { DeliveryHistory(delivery: $0, attempts: attempts[$0.id] ?? []) }
        return item
    }
}
