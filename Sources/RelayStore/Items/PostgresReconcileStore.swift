import Foundation
import Logging
import Metrics
import PostgresNIO
import RelayCore

/// Commits a reconcile: the item, its new timeline entries, the deliveries they cause (with
/// their jobs), the record of the fetch and the webhook event's new state, in one
/// transaction under a per-item advisory lock. The change was computed against a stored
/// state read earlier; if another worker stored the item meanwhile the commit is refused
/// (`nil`) and the caller diffs again, so each transition is recorded once.
public struct PostgresReconcileStore: Sendable {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The database's clock: answers are ordered by it, never by a host's own clock.
    public func clock() async throws -> Date {
        let rows = try await client.query("SELECT statement_timestamp()", logger: logger)
        for try await now in rows.decode(Date.self) { return now }
        throw StoreError.missingResult
    }

    /// The organisation's own ID for an Entrupy username (the SDK users mirror; the latest
    /// authorised when several share it), for notifications.
    public func uniqueUserID(username: String) async throws -> String? {
        let rows = try await client.query("""
            SELECT unique_user_id FROM sdk_users WHERE username = \(StoredText.clean(username))
            ORDER BY last_authorized_at DESC LIMIT 1
            """, logger: logger)
        for try await id in rows.decode(String.self) { return id }
        return nil
    }

    public func state(of entrupyID: String) async throws -> StoredItemState? {
        try await client.withConnection { try await Self.state(of: entrupyID, on: $0, logger: logger) }
    }

    static func state(of entrupyID: String, on connection: PostgresConnection, logger: Logger) async throws -> StoredItemState? {
        let rows = try await connection.query("""
            SELECT result, result_final, flag, fetched_at FROM items WHERE entrupy_id = \(entrupyID)
            """, logger: logger)
        for try await (result, final, flag, fetchedAt) in rows.decode((String?, Bool, String, Date).self) {
            return StoredItemState(snapshot: ItemSnapshot(result: result, resultFinal: final, flag: flag), fetchedAt: fetchedAt)
        }
        return nil
    }

    /// The stored states of many items in one query (the sync compares a search page with them).
    public func states(of entrupyIDs: [String]) async throws -> [String: StoredItemState] {
        guard !entrupyIDs.isEmpty else { return [:] }
        let rows = try await client.query("""
            SELECT entrupy_id, result, result_final, flag, fetched_at FROM items WHERE entrupy_id = ANY(\(entrupyIDs.map { StoredText.clean($0) })::text[])
            """, logger: logger)
        var states: [String: StoredItemState] = [:]
        for try await (id, result, final, flag, fetchedAt) in rows.decode((String, String?, Bool, String, Date).self) {
            states[id] = StoredItemState(snapshot: ItemSnapshot(result: result, resultFinal: final, flag: flag), fetchedAt: fetchedAt)
        }
        return states
    }

    /// Commits `change`, or returns nil when the stored state is no longer `change.basedOn`.
    public func commit(_ change: ReconcileChange) async throws -> ApplyResult? {
        // Everything below sees the item as it can be stored (U+0000 replaced), identifiers included.
        let item = change.item.storable
        return try await client.withTransaction(logger: logger) { tx -> ApplyResult? in
            try await tx.query("SELECT pg_advisory_xact_lock(hashtextextended(\(item.entrupyID), 7361))", logger: logger)
            guard try await Self.state(of: item.entrupyID, on: tx, logger: logger) == change.basedOn else { return nil }
            if change.stale {
                try await recordFetch(change, outcome: "stale", on: tx)
                return ApplyResult(transitions: [], stale: true, deliveries: 0, entrupyID: item.entrupyID)
            }
            let changed = change.basedOn?.snapshot != item.snapshot
            let eventIDs = try await PostgresItemRepository.store(
                item, fetchedAt: change.observedAt, changed: changed, transitions: change.transitions, source: change.source,
                on: tx, logger: logger)
            let deliveries = try await PostgresDeliveryRepository.insert(change.deliveries, itemEventIDs: eventIDs, on: tx, logger: logger)
            try await recordFetch(change, outcome: change.basedOn == nil ? "created" : (changed ? "changed" : "unchanged"), on: tx)
            return ApplyResult(transitions: change.transitions, stale: false, deliveries: deliveries, entrupyID: item.entrupyID)
        }
    }

    /// One row per fetch that reached the store, for the item's timeline (at the time the
    /// answer was requested, like the transitions it caused); the webhook event that asked for
    /// it is marked processed, and (for a fetch of the item, not a search) so is every other
    /// queued one about the item that arrived before the fetch was requested.
    private func recordFetch(_ change: ReconcileChange, outcome: String, on tx: PostgresConnection) async throws {
        let entrupyID = StoredText.clean(change.item.entrupyID)
        var sql = PostgresQuery.StringInterpolation(literalCapacity: 900, interpolationCount: 14)
        sql.appendLiteral("WITH recorded AS (INSERT INTO reconciliations (entrupy_id, source, webhook_event_id, outcome, transitions, at, note) VALUES (")
        sql.appendInterpolation(entrupyID); sql.appendLiteral(", ")
        sql.appendInterpolation(change.source.label); sql.appendLiteral(", ")
        sql.appendInterpolation(change.source.webhookEventID); sql.appendLiteral(", ")
        sql.appendInterpolation(outcome); sql.appendLiteral(", ")
        sql.appendInterpolation(change.transitions.count); sql.appendLiteral(", ")
        sql.appendInterpolation(change.observedAt); sql.appendLiteral(", ")
        sql.appendInterpolation(change.item.storageNote); sql.appendLiteral("))")
        // A search answer may lag behind the item itself: only a fetch of the item covers hints.
        try PostgresWebhookEventRepository.appendMarkReconciled(to: &sql, eventID: change.source.webhookEventID, entrupyID: entrupyID,
                                                            covering: change.source == .sync ? nil : change.observedAt)
        sql.appendLiteral("SELECT count(*)::int8 FROM covered")
        let rows = try await tx.query(PostgresQuery(stringInterpolation: sql), logger: logger)
        for try await covered in rows.decode(Int64.self) where covered > 0 {
            Counter(label: "relay_webhook_events_coalesced_total").increment(by: Int(covered))
        }
    }
}
