public import Foundation
import Logging
import Metrics
public import PostgresNIO
import RelayDatabase
public import RelayModel
public import RelayQueue
import RelayRuntime

/// Commits a reconcile: the item, its new timeline entries, the deliveries they cause (with
/// their jobs), the record of the fetch and the webhook event's new state, in one statement
/// (one implicit transaction). The change was computed against a stored state read earlier;
/// if another worker stored the item meanwhile the statement writes nothing and the commit is
/// refused (`nil`), and the caller diffs again, so each transition is recorded once.
public struct PostgresReconcileStore: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// The submitters' IDs read before, checked by each commit that rendered with one.
    let submitters = SubmitterIDCache()

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
    /// authorised when several share it), for notifications. Answered from memory when it was
    /// read before: the commit that renders with it checks it (`SubmitterLookup`).
    public func uniqueUserID(username: String) async throws -> String? {
        let username = StoredText.clean(username)
        if let remembered = submitters.answer(for: username) { return remembered }
        let answer = try await PreparedStatementRunner.rows(UniqueUserIDStatement(parameter: username), on: client, logger: logger).first
        submitters.remember(answer, for: username)
        return answer
    }

    public func state(of entrupyID: String) async throws -> StoredItemState? {
        try await client.withConnection { try await Self.state(of: entrupyID, on: $0, logger: logger) }
    }

    static func state(of entrupyID: String, on connection: PostgresConnection, logger: Logger) async throws -> StoredItemState? {
        try await decodeState(connection.query("""
            SELECT result, result_final, flag, fetched_at, erased_at IS NOT NULL FROM items WHERE entrupy_id = \(entrupyID)
            """, logger: logger))
    }

    private static func decodeState(_ rows: PostgresRowSequence) async throws -> StoredItemState? {
        for try await (result, final, flag, fetchedAt, erased) in rows.decode((String?, Bool, String, Date, Bool).self) {
            return StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt, erased: erased)
        }
        return nil
    }

    /// The stored states of many items in one query (the sync compares a search page with them).
    public func states(of entrupyIDs: [String]) async throws -> [String: StoredItemState] {
        guard !entrupyIDs.isEmpty else { return [:] }
        let rows = try await client.query("""
            SELECT entrupy_id, result, result_final, flag, fetched_at, erased_at IS NOT NULL FROM items WHERE entrupy_id = ANY(\(entrupyIDs.map { StoredText.clean($0) })::text[])
            """, logger: logger)
        var states: [String: StoredItemState] = [:]
        for try await (id, result, final, flag, fetchedAt, erased) in rows.decode((String, String?, Bool, String, Date, Bool).self) {
            states[id] = StoredItemState(result: result, resultFinal: final, flag: flag, fetchedAt: fetchedAt, erased: erased)
        }
        return states
    }

    /// Commits `change`, or returns nil when the stored state is no longer `change.basedOn`
    /// (nothing was written); throws `ErasedSubjectFound` (nothing written) when the item names
    /// a key an erasure remembered and `change` still has the people fields. One statement writes it all (`StoreStatement`,
    /// `StoreWithDeliveriesStatement`, or `RecordStaleStatement` for a stale fetch); where a
    /// transaction took five round trips (BEGIN, read the row under lock, write, insert the
    /// deliveries, COMMIT), this takes two.
    /// Given a worker's run's follow-up lease (`followUps`, the handler's
    /// `JobContext.followUps`), the deliveries' jobs are inserted claimed by its worker, which
    /// sends them when the handler returns (`JobInsert`); with none (nil), they are inserted
    /// available and the workers are woken to claim them.
    /// Given the fetch lease the reconcile holds (`releasing`), the commit's second round trip
    /// ends it (`PostgresFetchLeases.ReleaseStatement`) in place of an empty statement.
    public func commit(_ change: ReconcileChange, followUps: FollowUpJobs?, releasing lease: FetchLease? = nil) async throws -> ApplyResult? {
        // Everything below sees the item as it can be stored (U+0000 replaced), identifiers included.
        let item = change.item.storable
        return try await client.withConnection { connection -> ApplyResult? in
            let rows = if change.stale {
                try await PreparedStatementRunner.rows(RecordStaleStatement(change: change, item: item), on: connection, logger: logger)
            } else if change.deliveries.isEmpty {
                try await PreparedStatementRunner.rows(StoreStatement(change: change, item: item), on: connection, logger: logger)
            } else {
                try await PreparedStatementRunner.rows(StoreWithDeliveriesStatement(change: change, item: item, followUps: followUps),
                                                     on: connection, logger: logger)
            }
            guard let written = rows.first else { throw StoreError.missingResult }
            if written.refusedForErasure { throw ErasedSubjectFound(entrupyID: item.entrupyID) }
            if written.submitterChanged, let submitter = change.submitter {
                // Rendered with an ID the mirror no longer holds: read it again in the next round.
                submitters.forget(StoredText.clean(submitter.username))
            }
            guard written.items == 1 else { return nil }
            // Its deliveries' jobs are this run's from here: should the round trip below fail,
            // they are still committed and leased to this worker, which runs them (a delivery
            // whose commit did not last is not found, and nothing is sent).
            StoreWithDeliveriesStatement.deliverJobs.adopt(ids: written.leasedIDs, args: written.leasedArgs, into: followUps)
            // The statement's implicit transaction commits at Sync, after its rows and
            // CommandComplete have arrived; postgres-nio sends the next statement on this
            // connection only after ReadyForQuery, which PostgreSQL sends once that commit is
            // durable (a commit that failed closes the connection, so the next statement
            // throws). So the change is not reported, and its leased deliveries (run only once
            // the handler returns) not sent, before a second round trip (`confirmDurable`).
            let leaseEnded = try await confirmDurable(written, releasing: lease, on: connection)
            if written.covered > 0 {
                MetricHandles.counter(.webhookEventsCoalesced).increment(by: Int(written.covered))
            }
            var result = change.stale ? ApplyResult(transitions: [], stale: true, deliveries: 0, entrupyID: item.entrupyID)
                : ApplyResult(transitions: change.transitions, stale: false, deliveries: Int(written.deliveries), entrupyID: item.entrupyID)
            result.leaseEnded = leaseEnded
            return result
        }
    }

    /// The commit's second round trip on its connection, which returns once the commit is
    /// durable: the workers' wake when they have jobs to claim; the fetch lease's end when
    /// there is one; else an empty statement. Answers whether the lease was ended. A server's
    /// error here (NOTIFY's queue full, say) came after the commit's ReadyForQuery, so the
    /// commit stands and it is logged (a lease not ended is the caller's to release); only a
    /// lost connection leaves the commit unknown, and throws (the job runs again and finds
    /// what was stored).
    private func confirmDurable(_ written: Written, releasing lease: FetchLease?, on connection: PostgresConnection) async throws -> Bool {
        let wake = written.deliveries > written.leasedIDs.count
        do {
            if wake {
                try await PostgresJobQueue.wakeWorkers(on: connection, logger: logger)
            } else if lease == nil {
                _ = try await PreparedStatementRunner.rows(CommittedStatement(), on: connection, logger: logger)
            }
        } catch let error where PostgresErrorText.sqlState(error) != nil {
            logger.warning("the statement after a reconcile's commit failed; the commit stands (workers find its deliveries when they poll)",
                           metadata: ["error": "\(StoreFailure.describe(error))"])
        }
        guard let lease else { return false }
        do {
            _ = try await PreparedStatementRunner.rows(PostgresFetchLeases.ReleaseStatement(lease: lease), on: connection, logger: logger)
            return true
        } catch let error where PostgresErrorText.sqlState(error) != nil {
            logger.warning("a reconcile's fetch lease was not ended with its commit; released apart",
                           metadata: ["error": "\(StoreFailure.describe(error))"])
            return false
        }
    }
}
