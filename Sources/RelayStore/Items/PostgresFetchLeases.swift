public import Foundation
import Logging
public import PostgresNIO
public import RelayModel
import RelayDatabase

/// Which replica is fetching an item now (`item_fetch_leases`): hints for the item elsewhere
/// wait for that fetch instead of making their own, so a burst costs at most two fetches
/// across replicas, as `KeyedLock` makes it within one. A lease ends when released or, if its
/// holder died, at `expires_at`.
public struct PostgresFetchLeases: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// Longer than a fetch and its commit can take (the API's timeout and the store's).
    public let duration: Duration

    public init(client: PostgresClient, logger: Logger, duration: Duration) {
        self.client = client
        self.logger = logger
        self.duration = duration
    }

    /// Takes the lease of `key` when nobody holds it (or the holder's expired); nil when another holds it.
    /// Prepared: it runs for every reconcile (unprepared, it was parsed and planned each time).
    public func take(_ key: String) async throws -> UUID? {
        let statement = TakeStatement(key: key, holder: UUID(), milliseconds: duration.milliseconds)
        return try await PreparedStatementRunner.rows(statement, on: client, logger: logger).first
    }

    /// `take`'s statement: the lease, when nobody holds it or the holder's has expired.
    struct TakeStatement: PostgresPreparedStatement {
        typealias Row = UUID
        static let name = "item_fetch_lease_take"
        static let sql = """
            INSERT INTO item_fetch_leases (item_key, holder, expires_at)
            VALUES ($1, $2, now() + $3::bigint * interval '1 millisecond')
            ON CONFLICT (item_key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
                WHERE item_fetch_leases.expires_at < now()
            RETURNING holder
            """

        let key: String
        let holder: UUID
        let milliseconds: Int64

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(key)
            bindings.append(holder)
            bindings.append(milliseconds)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> UUID {
            try row.decode(UUID.self)
        }
    }

    /// Ends the lease `holder` took (nothing when it expired and another took it over).
    public func release(_ key: String, holder: UUID) async throws {
        // Unprepared: this runs in a task of its own when a reconcile was cancelled, after a
        // restart of the database too, and nothing on that path should depend on what a
        // connection has prepared (1ab268f).
        let statement = ReleaseStatement(lease: FetchLease(key: key, holder: holder))
        try await client.query(PostgresQuery(unsafeSQL: ReleaseStatement.sql, binds: statement.makeBindings()), logger: logger)
    }

    /// Ends a lease: its text for `release`, and prepared for a reconcile's commit, which runs
    /// it on its connection once the commit is durable (`PostgresReconcileStore.commit`). The table is unlogged, so it
    /// writes no WAL and its own commit waits for no flush.
    struct ReleaseStatement: PostgresPreparedStatement {
        typealias Row = Int32
        static let name = "item_fetch_lease_release"
        static let sql = "DELETE FROM item_fetch_leases WHERE item_key = $1 AND holder = $2 RETURNING 1"

        let lease: FetchLease

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(lease.key)
            bindings.append(lease.holder)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int32 {
            try row.decode(Int32.self)
        }
    }
}
