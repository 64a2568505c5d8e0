import Foundation
import Logging
import Metrics
import PostgresNIO
import RelayDatabase
import RelayCore
import RelayQueue

/// Commits a reconcile: the item, its new timeline entries, the deliveries they cause (with
/// their jobs), the record of the fetch and the webhook event's new state, in one
/// transaction that holds the item's row lock. The change was computed against a stored
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
        try await PreparedStatementRunner.rows(UniqueUserIDStatement(parameter: StoredText.clean(username)), on: client, logger: logger).first
    }

    public func state(of entrupyID: String) async throws -> StoredItemState? {
        try await client.withConnection { try await Self.state(of: entrupyID, on: $0, logger: logger) }
    }

    static func state(of entrupyID: String, on connection: PostgresConnection, logger: Logger) async throws -> StoredItemState? {
        try await decodeState(connection.query("""
            SELECT result, result_final, flag, fetched_at FROM items WHERE entrupy_id = \(entrupyID)
            """, logger: logger))
    }

    /// The stored state, with the item's row locked until the transaction ends (an item not
    /// stored yet locks nothing: a concurrent first store meets the insert's conflict).
    static func lockedState(of entrupyID: String, on tx: PostgresConnection, logger: Logger) async throws -> StoredItemState? {
        let rows = try await PreparedStatementRunner.rows(LockedStateStatement(parameter: entrupyID), on: tx, logger: logger)
        return rows.first.map { StoredItemState(result: $0.0, resultFinal: $0.1, flag: $0.2, fetchedAt: $0.3) }
    }

    private static func decodeState(_ rows: PostgresRowSequence) async throws -> StoredItemState? {
        for try await (result, final, flag, fetchedAt) in rows.decode((String?, Bool, String, Date).self) {
            return StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt)
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
            states[id] = StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt)
        }
        return states
    }

    /// Commits `change`, or returns nil when the stored state is no longer `change.basedOn`.
    /// Two statements in the transaction: lock and read the item's row, then one that writes
    /// the item, its timeline, the record of the fetch and the events' state (and one more for
    /// deliveries, when the rules planned some). With a `lease`, the deliveries' jobs are
    /// inserted claimed by its worker (`ApplyResult.leasedJobs`); without one, the workers are
    /// woken to claim them.
    public func commit(_ change: ReconcileChange, lease: JobLease? = nil) async throws -> ApplyResult? {
        // Everything below sees the item as it can be stored (U+0000 replaced), identifiers included.
        let item = change.item.storable
        do {
            return try await client.withConnection { connection -> ApplyResult? in
                let result = try await connection.withTransaction(logger: logger) { tx in
                    try await write(change, item: item, lease: lease, on: tx)
                }
                if let result, result.deliveries > result.leasedJobs.count { await wakeWorkers(on: connection) }
                return result
            }
        } catch let error as PostgresTransactionError where error.closureError is CommitRefused && error.rollbackError == nil {
            return nil
        }
    }

    /// The transaction's statements (see `commit`); throws `CommitRefused` to roll it back.
    private func write(_ change: ReconcileChange, item: EntrupyItem, lease: JobLease?, on tx: PostgresConnection) async throws -> ApplyResult? {
        guard try await Self.lockedState(of: item.entrupyID, on: tx, logger: logger) == change.basedOn else { return nil }
        let rows = change.stale
            ? try await PreparedStatementRunner.rows(RecordStaleStatement(change: change, item: item), on: tx, logger: logger)
            : try await PreparedStatementRunner.rows(StoreStatement(change: change, item: item), on: tx, logger: logger)
        guard let written = rows.first.map({ (items: $0.0, eventIDs: $0.1, covered: $0.2) }) else { throw StoreError.missingResult }
        // Another worker stored the new item first: undo the fetch's record, and diff again.
        guard written.items == 1 else { throw CommitRefused() }
        if written.covered > 0 {
            Counter(label: "relay_webhook_events_coalesced_total").increment(by: Int(written.covered))
        }
        if change.stale { return ApplyResult(transitions: [], stale: true, deliveries: 0, entrupyID: item.entrupyID) }
        let deliveries = try await PostgresDeliveryRepository.insert(change.deliveries, itemEventIDs: written.eventIDs,
                                                                     lease: lease, on: tx, logger: logger)
        return ApplyResult(transitions: change.transitions, stale: false, deliveries: deliveries.count, entrupyID: item.entrupyID,
                           leasedJobs: deliveries.leasedJobs)
    }

    /// Wakes the workers for the deliveries just committed, on the transaction's connection.
    /// Not inside the transaction: a NOTIFY there would hold PostgreSQL's notify lock through
    /// the commit's WAL flush, so concurrent reconciles (and the receiver's batches) would
    /// commit one at a time. A wake that fails is logged, not thrown: the commit stands, and
    /// workers also poll.
    private func wakeWorkers(on connection: PostgresConnection) async {
        do {
            try await PostgresJobQueue.wakeWorkers(on: connection, logger: logger)
        } catch {
            logger.warning("waking the workers after a reconcile failed; they will find its deliveries when they poll",
                           metadata: ["error": "\(StoreError.describe(error))"])
        }
    }

    /// Thrown inside the commit's transaction to roll it back (`withTransaction` hands it on
    /// wrapped in a `PostgresTransactionError`).
    private struct CommitRefused: Error {}
}
