import Foundation
import Logging
import PostgresNIO
import RelayModel

/// A bulk action's row in `bulk_actions`: written `running` before the work, advanced while it
/// goes, finished after it. Each is its own statement outside the work's transactions, so the
/// record stands whatever happens to the work.
extension PostgresBulkRetry {
    /// How long a `running` row may go without progress before the next bulk action takes it for
    /// dead (`interrupted`). Progress is written every `progressEvery` deliveries, each a short
    /// transaction, so a live run writes it within seconds.
    static let staleAfterSeconds = 600
    static let progressEvery = 200

    /// Marks rows left `running` by a process that stopped (no progress for `staleAfterSeconds`)
    /// `interrupted`; returns how many.
    func markInterrupted() async throws -> Int {
        let rows = try await client.query("""
            UPDATE bulk_actions SET state = \(BulkActionState.interrupted), finished_at = now(),
                   error = 'no progress since ' || progress_at || ': the process running it stopped'
            WHERE state = \(BulkActionState.running) AND progress_at < now() - \(Self.staleAfterSeconds)::double precision * interval '1 second'
            RETURNING id
            """, logger: logger)
        var ids: [Int64] = []
        for try await id in rows.decode(Int64.self) { ids.append(id) }
        if !ids.isEmpty {
            logger.warning("bulk actions left running by a stopped process marked interrupted", metadata: ["bulk_action_ids": "\(ids)"])
        }
        return ids.count
    }

    /// The row of a run about to start: who, which filters, how many matched; its ID.
    func begin(_ filter: DeliveryFilter, requestedBy: String, matched: Int) async throws -> Int64 {
        let filters = JSONValue.object(filter.recorded.mapValues(JSONValue.string)).jsonText
        let rows = try await client.query("""
            INSERT INTO bulk_actions (action, requested_by, filters, matched, queued, state, progress_at)
            VALUES ('retry_deliveries', \(requestedBy), \(filters)::jsonb, \(matched), 0, \(BulkActionState.running), now())
            RETURNING id
            """, logger: logger)
        for try await id in rows.decode(Int64.self) { return id }
        throw PostgresBulkRetryRowMissing()
    }

    /// How many are queued so far, and that the run is alive.
    func progress(_ id: Int64, queued: Int) async throws {
        try await client.query("""
            UPDATE bulk_actions SET queued = \(queued), progress_at = now() WHERE id = \(id) AND state = \(BulkActionState.running)
            """, logger: logger)
    }

    /// The run's end: `done`, or `failed` with its error; `queued` as far as it got.
    func finish(_ id: Int64, state: BulkActionState, queued: Int, error: String? = nil) async throws {
        try await client.query("""
            UPDATE bulk_actions SET state = \(state), queued = \(queued), progress_at = now(), finished_at = now(), error = \(error)
            WHERE id = \(id)
            """, logger: logger)
    }
}

/// `INSERT ... RETURNING` answered no row: the database did not record the bulk action, so it
/// is not run.
struct PostgresBulkRetryRowMissing: Error, CustomStringConvertible {
    var description: String { "the bulk action's row was not written; nothing was retried" }
}
