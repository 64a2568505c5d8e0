import Foundation
import Logging
import PostgresNIO
import RelayModel
import RelayDatabase

/// Reads an item and its whole history, a statement per part, on the one connection whose
/// transaction the caller opened: every part comes from the same snapshot.
struct ItemDetailReader {
    let connection: PostgresConnection
    let logger: Logger

    /// The item named by an Entrupy ID, else the latest one with that customer item ID, without
    /// its history.
    func item(_ id: String) async throws -> ItemDetail? {
        let rows = try await connection.query("""
            SELECT \(unescaped: ItemDetailRow.selectList)
            FROM items WHERE entrupy_id = \(id) OR customer_item_id = \(id)
            ORDER BY (entrupy_id = \(id)) DESC, submitted_at DESC NULLS LAST, first_seen_at DESC LIMIT 1
            """, logger: logger)
        var found: ItemDetail?
        for try await row in rows { found = try ItemDetailRow(row).detail }
        return found
    }

    /// The item with every part of its history read.
    func withHistory(_ item: ItemDetail) async throws -> ItemDetail {
        var item = item
        let entrupyID = item.entrupyID
        item.transitions = try await transitions(of: entrupyID)
        item.reconciliations = try await reconciliations(of: entrupyID)
        item.webhooks = try await webhooks(of: entrupyID, customerItemID: item.item.customerItemID)
        item.notes = try await notes(of: entrupyID)
        item.flagRequests = try await flagRequests(of: entrupyID)
        if let username = item.item.username {
            item.submitter = try await submitter(username: username)
        }
        if let customerItemID = item.item.customerItemID {
            item.resubmissions = try await resubmissions(of: customerItemID, besides: entrupyID)
        }
        item.deliveries = try await deliveries(of: entrupyID)
        return item
    }

    func transitions(of entrupyID: String) async throws -> [TransitionEntry] {
        let rows = try await connection.query("""
            SELECT kind, occurred_at, from_value, to_value, source, webhook_event_id
            FROM item_events WHERE entrupy_id = \(entrupyID) ORDER BY occurred_at, id
            """, logger: logger)
        var transitions: [TransitionEntry] = []
        for try await (kind, at, from, to, source, eventID) in rows.decode((String, Date, String?, String?, String, Int64?).self) {
            transitions.append(TransitionEntry(kind: kind, at: at, from: from, to: to, source: source, webhookEventID: eventID))
        }
        return transitions
    }

    func reconciliations(of entrupyID: String) async throws -> [Reconciliation] {
        let rows = try await connection.query("""
            SELECT at, source, outcome, transitions, webhook_event_id, note
            FROM reconciliations WHERE entrupy_id = \(entrupyID) ORDER BY id
            """, logger: logger)
        var fetches: [Reconciliation] = []
        for try await (at, source, outcome, count, eventID, note) in rows.decode((Date, String, String, Int, Int64?, String?).self) {
            fetches.append(Reconciliation(at: at, source: source, outcome: outcome, transitions: count, webhookEventID: eventID,
                                          note: note))
        }
        return fetches
    }

    /// Webhooks that named the item, and those that named only its customer item ID.
    func webhooks(of entrupyID: String, customerItemID: String?) async throws -> [WebhookEventRecord] {
        let rows = try await connection.query(WebhookEventRecord.select("""
            WHERE entrupy_id = \(entrupyID)
               OR (entrupy_id IS NULL AND customer_item_id IS NOT NULL AND customer_item_id = \(customerItemID))
            ORDER BY received_at, id
            """), logger: logger)
        return try await WebhookEventRecord.records(from: rows)
    }

    /// What support messages and certificate transfers about the item said.
    func notes(of entrupyID: String) async throws -> [ItemNote] {
        let rows = try await connection.query("""
            SELECT id, event_type, received_at, body, body_removed FROM webhook_events
            WHERE entrupy_id = \(entrupyID) AND event_type = ANY(\(Array(WebhookNote.eventTypes))::text[])
            ORDER BY received_at, id LIMIT 500
            """, logger: logger)
        var notes: [ItemNote] = []
        for try await (id, type, at, body, removed) in rows.decode((Int64, String, Date, ByteBuffer?, String?).self) {
            // A message whose body is gone still has its line, saying so.
            guard let body else {
                notes.append(ItemNote(kind: type, at: at, text: "body \(removed ?? "removed")", webhookEventID: id))
                continue
            }
            guard let text = WebhookNote.read(eventType: type, body: Array(body.readableBytesView)) else { continue }
            notes.append(ItemNote(kind: type, at: at, text: text, webhookEventID: id))
        }
        return notes
    }

    /// The SDK user of that name last authorized, from the users mirror.
    func submitter(username: String) async throws -> Submitter? {
        let rows = try await connection.query("""
            SELECT unique_user_id, email, first_name, last_name FROM sdk_users WHERE username = \(username)
            ORDER BY last_authorized_at DESC LIMIT 1
            """, logger: logger)
        var submitter: Submitter?
        for try await (id, email, first, last) in rows.decode((String, String?, String?, String?).self) {
            submitter = Submitter(uniqueUserID: id, email: email, firstName: first, lastName: last)
        }
        return submitter
    }

    /// Other authentications with the same customer item ID, newest first.
    func resubmissions(of customerItemID: String, besides entrupyID: String) async throws -> [ItemSummary] {
        let rows = try await connection.query("""
            SELECT \(unescaped: ItemSummary.selectList) FROM items
            WHERE customer_item_id = \(customerItemID) AND entrupy_id <> \(entrupyID)
            ORDER BY listed_at DESC, entrupy_id DESC LIMIT 100
            """, logger: logger)
        var others: [ItemSummary] = []
        for try await row in rows {
            var cells = PostgresRowCells(row)
            others.append(try ItemSummary(cells: &cells))
        }
        return others
    }

    /// The item's deliveries, oldest first, each with its attempts.
    func deliveries(of entrupyID: String) async throws -> [DeliveryHistory] {
        let records = try await PostgresDeliveryStore.records(from: connection.query(
            try PostgresDeliveryStore.listQuery(DeliverySearch(item: entrupyID), cursor: nil, limit: 1000), logger: logger))
        let attempts = try await PostgresDeliveryStore.attempts(from: connection.query(
            PostgresDeliveryStore.attemptsQuery(deliveryID: nil, entrupyID: entrupyID), logger: logger))
        return records.reversed().map { DeliveryHistory(delivery: $0, attempts: attempts[$0.id] ?? []) }
    }
}
