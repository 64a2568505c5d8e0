import Foundation
import PostgresNIO
import RelayModel

extension WebhookEventRecord {
    /// The columns `records(from:)` reads, in order (a constant: no value is ever spliced in).
    static let selectList = """
        id, event_type, event_id, entrupy_id, customer_item_id, state, duplicates, verified_by,
        client_address, octet_length(body), body_removed, received_at
        """

    /// A query `SELECT <selectList> FROM webhook_events <rest>`; values in `rest` stay bind parameters.
    static func select(_ rest: PostgresQuery) -> PostgresQuery {
        PostgresQuery(unsafeSQL: "SELECT " + selectList + " FROM webhook_events " + rest.sql, binds: rest.binds)
    }

    static func records(from rows: PostgresRowSequence) async throws -> [WebhookEventRecord] {
        var records: [WebhookEventRecord] = []
        for try await row in rows.decode((Int64, String?, String?, String?, String?, WebhookEventState, Int, String, String?, Int?, String?, Date).self) {
            records.append(WebhookEventRecord(
                id: row.0, eventType: row.1, eventID: row.2, entrupyID: row.3, customerItemID: row.4, state: row.5,
                duplicates: row.6, verifiedBy: row.7, clientAddress: row.8, bodyBytes: row.9, bodyRemoved: row.10, receivedAt: row.11
            ))
        }
        return records
    }
}
